package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.F_ROW;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_TEXT;
import static org.chartstream.store.lucene.LuceneSchema.F_TEXT;
import static org.chartstream.store.lucene.SnapshotReads.restriction;
import static org.chartstream.store.lucene.SnapshotReads.rowHeads;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FuzzyTermsEnum;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TermIndex;

/**
 * The store's {@link TermIndex}: exact terms over the rows' whole text, and the indexed words a few edits from a
 * word, checked against the active rows.
 */
final class LuceneTermLookups implements TermIndex {

  private final SnapshotReads reads;
  private final Analyzer analyzer;

  LuceneTermLookups(SnapshotReads reads, Analyzer analyzer) {
    this.reads = reads;
    this.analyzer = analyzer;
  }

  /** Rows found by the term in their whole text, cited by their first chunk holding it. */
  @Override
  public TermIndex.TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap) {
    Objects.requireNonNull(term, "term");
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be >= 1: " + cap);
    }
    Query rowText = exactQuery(F_ROW_TEXT, term);
    if (rowText == null) {
      return TermIndex.TermRows.NONE;
    }
    return reads.withSnapshot(s -> {
      if (s.activeFilter() == null) {
        return TermIndex.TermRows.NONE;
      }
      Query restriction = restriction(s, filter);
      Query heads = new BooleanQuery.Builder()
          .add(rowText, BooleanClause.Occur.FILTER)
          .add(restriction, BooleanClause.Occur.FILTER)
          .add(rowHeads(), BooleanClause.Occur.FILTER)
          .build();
      int total = s.searcher().count(heads);
      if (total == 0) {
        return TermIndex.TermRows.NONE;
      }
      StoredFields stored = s.searcher().storedFields();
      Map<String, StoredChunk> byRowId = new TreeMap<>();
      for (ScoreDoc sd : s.searcher().search(heads, total).scoreDocs) {
        StoredChunk head = LuceneSchema.toChunk(stored.document(sd.doc), null);
        byRowId.put(head.row().id(), head);
      }
      List<StoredChunk> kept = new ArrayList<>(byRowId.values()).subList(0, Math.min(cap, byRowId.size()));
      Map<String, StoredChunk> first = new HashMap<>();
      for (StoredChunk c : chunksHolding(s, exactQuery(F_TEXT, term), restriction, kept)) {
        first.merge(c.row().id(), c, (a, b) -> a.chunkIndex() <= b.chunkIndex() ? a : b);
      }
      // a phrase across a chunk boundary is only in the row's whole text: the row is cited by its head chunk
      List<StoredChunk> rows = kept.stream().map(h -> first.getOrDefault(h.row().id(), h)).toList();
      return new TermIndex.TermRows(rows, total);
    });
  }

  /** A walk of the whole-row text's term dictionary, checked against the active rows. */
  @Override
  public List<String> similarWords(String word, int maxEdits, int max) {
    Objects.requireNonNull(word, "word");
    if (maxEdits < 1 || maxEdits > 2 || max < 1) {
      throw new IllegalArgumentException("maxEdits must be 1 or 2 and max >= 1: " + maxEdits + ", " + max);
    }
    Set<String> analysed = LexicalQueries.terms(analyzer, F_ROW_TEXT, word);
    if (analysed.size() != 1) {
      return List.of();
    }
    String target = analysed.iterator().next();
    return reads.withSnapshot(s -> {
      Terms terms = MultiTerms.getTerms(s.reader(), F_ROW_TEXT);
      if (terms == null || s.activeFilter() == null) {
        return List.of();
      }
      record Similar(String term, int edits, int rows) {}
      List<Similar> similar = new ArrayList<>();
      Query restriction = restriction(s, RetrievalFilter.NONE);
      FuzzyTermsEnum fuzzy =
          new FuzzyTermsEnum(terms, new Term(F_ROW_TEXT, target), maxEdits, 0, true);
      for (BytesRef t = fuzzy.next(); t != null; t = fuzzy.next()) {
        String term = t.utf8ToString();
        // the dictionary also holds superseded generations' and deleted rows' terms
        int rows = s.searcher().count(new BooleanQuery.Builder()
            .add(new TermQuery(new Term(F_ROW_TEXT, term)), BooleanClause.Occur.FILTER)
            .add(restriction, BooleanClause.Occur.FILTER)
            .add(rowHeads(), BooleanClause.Occur.FILTER)
            .build());
        if (rows > 0) {
          similar.add(new Similar(term, EditDistance.of(target, term), rows));
        }
      }
      similar.sort(Comparator.comparingInt(Similar::edits).thenComparing(Comparator.comparingInt(Similar::rows).reversed())
          .thenComparing(Similar::term));
      // the word's own stem is a suggestion when no record writes the word itself ("lisinoprill" → "lisinopril")
      String asked = analyzer.normalize(F_TEXT, word).utf8ToString();
      List<String> out = new ArrayList<>();
      for (Similar sim : similar) {
        String written = writtenForm(s, sim.term(), restriction);
        if (out.size() < max && !out.contains(written)
            && !analyzer.normalize(F_TEXT, written).utf8ToString().equals(asked)) {
          out.add(written);
        }
      }
      return List.copyOf(out);
    });
  }

  /** How the first row (in row id order) holding the indexed {@code term} writes it; the term if no chunk holds it alone. */
  private String writtenForm(Snapshot s, String term, Query restriction) throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(F_TEXT, term)), BooleanClause.Occur.FILTER)
        .add(restriction, BooleanClause.Occur.FILTER)
        .build();
    int n = s.searcher().count(q);
    if (n == 0) {
      return term;
    }
    StoredFields stored = s.searcher().storedFields();
    StoredChunk firstRow = null;
    for (ScoreDoc sd : s.searcher().search(q, n).scoreDocs) {
      StoredChunk c = LuceneSchema.toChunk(stored.document(sd.doc), null);
      if (firstRow == null || c.row().id().compareTo(firstRow.row().id()) < 0
          || (c.row().equals(firstRow.row()) && c.chunkIndex() < firstRow.chunkIndex())) {
        firstRow = c;
      }
    }
    try (TokenStream ts = analyzer.tokenStream(F_TEXT, firstRow.text())) {
      CharTermAttribute analysed =
          ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offsets =
          ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      String written = term;
      while (ts.incrementToken()) {
        if (term.contentEquals(analysed)) {
          written = firstRow.text().substring(offsets.startOffset(), offsets.endOffset());
          break;
        }
      }
      ts.end();
      return written;
    }
  }

  /** The single analysed term of {@code text}, or its terms as a phrase; null when nothing in it is searchable. */
  private Query exactQuery(String field, String text) {
    Set<String> terms = LexicalQueries.terms(analyzer, field, text);
    if (terms.isEmpty()) {
      return null;
    }
    return terms.size() == 1 ? new TermQuery(new Term(field, terms.iterator().next()))
        : new QueryBuilder(analyzer).createPhraseQuery(field, text);
  }

  private static List<StoredChunk> chunksHolding(Snapshot s, Query text, Query restriction, List<StoredChunk> rows)
      throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(text, BooleanClause.Occur.FILTER)
        .add(restriction, BooleanClause.Occur.FILTER)
        .add(new TermInSetQuery(F_ROW, rows.stream().map(c -> new BytesRef(LuceneSchema.rowKey(c.row()))).toList()),
            BooleanClause.Occur.FILTER)
        .build();
    int n = s.searcher().count(q);
    if (n == 0) {
      return List.of();
    }
    StoredFields stored = s.searcher().storedFields();
    List<StoredChunk> out = new ArrayList<>(n);
    for (ScoreDoc sd : s.searcher().search(q, n).scoreDocs) {
      out.add(LuceneSchema.toChunk(stored.document(sd.doc), null));
    }
    return out;
  }
}
