package org.chartstream.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.QueryBuilder;
import org.chartstream.core.store.WeightedText;

/**
 * Turns a user's question into a BM25 query without any query syntax: nothing in the text is an operator, so no
 * input can produce a parse error. Double-quoted parts become phrase queries; every other analysed term is a SHOULD
 * clause (terms ORed).
 */
final class LexicalQueries {

  /** Upper bounds keep any input below Lucene's clause limit (1,024). */
  static final int MAX_TERMS = 256;

  static final int MAX_PHRASES = 32;

  /** Longer input is cut (a question is never this long; a pasted document might be). */
  static final int MAX_CHARS = 20_000;

  private static final Pattern PHRASE = Pattern.compile("\"([^\"]*)\"");

  private LexicalQueries() {}

  /**
   * The query for {@code text} over {@code field}, or {@code null} when the text has no searchable term (empty,
   * punctuation, stop words only).
   */
  static Query build(Analyzer analyzer, String field, String text) {
    return build(analyzer, field, text, new Budget());
  }

  /**
   * Σ weightᵢ · (the query of textᵢ) over {@code field}, or {@code null} when no text has a searchable term. The
   * texts share one {@link #MAX_TERMS} and {@link #MAX_PHRASES} budget, in order, so no list of texts exceeds
   * Lucene's clause limit either.
   */
  static Query build(Analyzer analyzer, String field, List<WeightedText> texts) {
    Budget budget = new Budget();
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    boolean any = false;
    for (WeightedText text : texts) {
      Query q = build(analyzer, field, text.text(), budget);
      if (q != null) {
        query.add(new BoostQuery(q, (float) text.weight()), BooleanClause.Occur.SHOULD);
        any = true;
      }
    }
    return any ? query.build() : null;
  }

  /** Terms and phrases still allowed in one query. */
  private static final class Budget {
    int terms = MAX_TERMS;
    int phrases = MAX_PHRASES;
  }

  private static Query build(Analyzer analyzer, String field, String text, Budget budget) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String normalised = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
    normalised = normalised.replace('\u201C', '"').replace('\u201D', '"').replace('\u201E', '"');

    List<String> phrases = new ArrayList<>();
    StringBuilder rest = new StringBuilder();
    Matcher m = PHRASE.matcher(normalised);
    int last = 0;
    while (m.find()) {
      rest.append(normalised, last, m.start()).append(' ');
      if (!m.group(1).isBlank()) {
        phrases.add(m.group(1));
      }
      last = m.end();
    }
    // an unmatched quote is just punctuation
    rest.append(normalised.substring(last).replace('"', ' '));

    BooleanQuery.Builder query = new BooleanQuery.Builder();
    int clauses = 0;
    QueryBuilder builder = new QueryBuilder(analyzer);
    for (String phrase : phrases) {
      if (budget.phrases == 0) {
        break;
      }
      Query q = builder.createPhraseQuery(field, phrase);
      if (q != null) {
        query.add(q, BooleanClause.Occur.SHOULD);
        clauses++;
        budget.phrases--;
      }
    }
    for (String term : terms(analyzer, field, rest.toString(), budget.terms)) {
      query.add(new TermQuery(new Term(field, term)), BooleanClause.Occur.SHOULD);
      clauses++;
      budget.terms--;
    }
    return clauses == 0 ? null : query.build();
  }

  /** Distinct analysed terms in order of first appearance, at most {@link #MAX_TERMS}. */
  static Set<String> terms(Analyzer analyzer, String field, String text) {
    return terms(analyzer, field, text, MAX_TERMS);
  }

  private static Set<String> terms(Analyzer analyzer, String field, String text, int max) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (out.size() < max && ts.incrementToken()) {
        if (term.length() > 0) {
          out.add(term.toString());
        }
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
