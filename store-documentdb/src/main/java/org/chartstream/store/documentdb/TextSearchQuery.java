package org.chartstream.store.documentdb;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code $text} search string the DocumentDB store sends for a question ({@link #of}). */
final class TextSearchQuery {

  /** Upper bounds keep a pasted document from becoming a giant text query. */
  static final int MAX_TEXT_TERMS = 256;
  static final int MAX_TEXT_PHRASES = 32;
  static final int MAX_TEXT_CHARS = 20_000;

  private static final Pattern PHRASE = Pattern.compile("\"([^\"]*)\"");
  private static final Pattern SEARCHABLE = Pattern.compile("[\\p{L}\\p{N}]");
  private static final Pattern NOT_SEARCHABLE = Pattern.compile("[^\\p{L}\\p{N}]");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  /** Digits (with decimals) that the engine's parser reads as a signed number when a hyphen precedes them. */
  private static final Pattern SIGNED_NUMBER_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)[^\\p{L}\\p{N}]*");

  private TextSearchQuery() {}

  /**
   * The {@code $text} search string for a user's question, or {@code null} when it has no searchable term. The
   * engine parses the string with PostgreSQL's {@code websearch_to_tsquery} and then ORs the loose terms, so nothing
   * of the question may reach it as an operator or as a phrase the user did not quote:
   *
   * <ul>
   *   <li>a {@code -} before a word (the engine's NOT) is dropped, and an intra-word hyphen splits the word
   *       ({@code follow-up} → {@code follow up}): the engine makes a hyphenated word a phrase node, and a phrase
   *       node makes every other term required ({@code follow-up metformin} matched nothing); a split never makes a
   *       one-letter term, and a number after the hyphen keeps its sign ({@link #hyphenParts});
   *   <li>a bare {@code or} (the engine's OR operator; an English stop word anyway) is dropped;
   *   <li>unbalanced quotes are punctuation; a single quoted word is sent bare, since the engine treats it as a loose
   *       term anyway ({@code "E11.9" glucose} also matches chunks without E11.9);
   *   <li>a quoted phrase of two or more words stays a phrase, and it is <em>required</em>: the engine ANDs it with
   *       the rest of the query, so the other words are required with it too (the Lucene store only ranks a phrase
   *       higher).
   * </ul>
   * Codes keep their dots ({@code E11.9} is one lexeme to the engine, and {@code E11} does not match it); other
   * punctuation ({@code $}, braces, backslashes, {@code <-> & | ! :*}) is literal text to the engine and is passed
   * through.
   */
  static String of(String question) {
    if (question == null || question.isBlank()) {
      return null;
    }
    String text = question.length() > MAX_TEXT_CHARS ? question.substring(0, MAX_TEXT_CHARS) : question;
    text = text.replace('\u201C', '"').replace('\u201D', '"').replace('\u201E', '"');
    List<String> phrases = new ArrayList<>();
    StringBuilder rest = new StringBuilder();
    Matcher m = PHRASE.matcher(text);
    int last = 0;
    while (m.find()) {
      rest.append(text, last, m.start()).append(' ');
      List<String> phraseWords = phraseWords(m.group(1));
      if (phraseWords.size() == 1) {
        rest.append(phraseWords.get(0)).append(' ');
      } else if (!phraseWords.isEmpty() && phrases.size() < MAX_TEXT_PHRASES) {
        phrases.add(String.join(" ", phraseWords));
      }
      last = m.end();
    }
    rest.append(text.substring(last).replace('"', ' '));
    List<String> parts = new ArrayList<>(looseTerms(rest.toString()));
    for (String phrase : phrases) {
      parts.add('"' + phrase + '"');
    }
    return parts.isEmpty() ? null : String.join(" ", parts);
  }

  /**
   * A quoted phrase's words in order (repeats kept: they are part of the phrase), without leading minus signs (the
   * engine skips them inside quotes); intra-word hyphens stay, the engine parses them the same in text and query.
   */
  private static List<String> phraseWords(String phrase) {
    List<String> out = new ArrayList<>();
    for (String raw : WHITESPACE.split(phrase.strip())) {
      String w = stripLeadingHyphens(raw);
      if (SEARCHABLE.matcher(w).find()) {
        out.add(w);
      }
    }
    return out;
  }

  /**
   * Distinct loose terms that have a letter or digit: each whitespace-separated word split at its hyphens
   * ({@link #hyphenParts}), and without a bare {@code or}, at most {@value #MAX_TEXT_TERMS}.
   */
  private static Set<String> looseTerms(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String raw : WHITESPACE.split(text.strip())) {
      for (String w : hyphenParts(raw)) {
        if (NOT_SEARCHABLE.matcher(w).replaceAll("").equalsIgnoreCase("or")) {
          continue;
        }
        out.add(w);
        if (out.size() >= MAX_TEXT_TERMS) {
          return out;
        }
      }
    }
    return out;
  }

  /**
   * A word's searchable parts, split at its hyphens as the engine's parser splits the text: leading hyphens (the
   * engine's NOT) are dropped; a part of one letter or digit is dropped ({@code x-ray} → {@code ray}: the text
   * indexes {@code ray} too, while a lone {@code x} matches unrelated chunks); a number after an intra-word hyphen
   * keeps it as a sign, quoted so it is a term and not a NOT ({@code COVID-19} → {@code COVID "-19"}: the engine
   * indexes {@code covid} and {@code -19}).
   */
  static List<String> hyphenParts(String word) {
    String[] parts = word.split("-+", -1);
    List<String> out = new ArrayList<>(parts.length);
    boolean intraWord = false;
    for (String part : parts) {
      Matcher number = SIGNED_NUMBER_PART.matcher(part);
      if (intraWord && number.matches()) {
        out.add("\"-" + number.group(1) + '"');
      } else if (SEARCHABLE.matcher(part).find()
          && (parts.length == 1 || NOT_SEARCHABLE.matcher(part).replaceAll("").length() > 1)) {
        out.add(part);
      }
      intraWord |= !part.isEmpty();
    }
    return out;
  }

  private static String stripLeadingHyphens(String word) {
    int i = 0;
    while (i < word.length() && word.charAt(i) == '-') {
      i++;
    }
    return word.substring(i);
  }
}
