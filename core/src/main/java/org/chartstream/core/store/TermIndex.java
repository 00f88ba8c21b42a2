package org.chartstream.core.store;

import java.util.List;

/**
 * Exact-term lookups over a store's indexed text, for questions that ask for every record holding one thing (a code,
 * a drug): not a ranked top k but all matching rows, up to a cap. A term is matched as the store analyses text for
 * its lexical search (whole words, case and accents folded on both sides), within the active generations and a
 * {@link RetrievalFilter}, like a search.
 */
public interface TermIndex {

  /**
   * Every row whose indexed text holds {@code term} (a word or code as a user types it; several words are matched as
   * a phrase), in row id order, at most {@code cap} of them; each row by the first of its chunks that holds the term
   * (no vector). Empty when the term has no searchable word.
   *
   * @throws IllegalArgumentException if {@code cap < 1}
   */
  TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap);

  /**
   * Words of the active rows' indexed text within {@code maxEdits} (1 or 2) edits of {@code word} but not equal to
   * it once folded, as a record writes them, nearest first, then held by more rows first; at most {@code max}. For
   * "did you mean": a store without a term dictionary to walk returns an empty list (see
   * {@code HybridStoreContract.similarIndexedWords()}).
   *
   * @throws IllegalArgumentException if {@code maxEdits} is not 1 or 2, or {@code max < 1}
   */
  List<String> similarWords(String word, int maxEdits, int max);

  /** Whether any active row holds {@code term}. */
  default boolean holds(String term) {
    return rowsWithTerm(term, RetrievalFilter.NONE, 1).total() > 0;
  }

  /**
   * What {@link #rowsWithTerm} found.
   *
   * @param rows  one chunk per row, the first that holds the term, in row id order; at most the cap
   * @param total every row holding the term, also those past the cap
   */
  record TermRows(List<StoredChunk> rows, long total) {
    public static final TermRows NONE = new TermRows(List.of(), 0);

    public TermRows {
      rows = List.copyOf(rows);
      if (total < rows.size()) {
        throw new IllegalArgumentException("total " + total + " < rows " + rows.size());
      }
    }

    /** Whether rows were left out at the cap. */
    public boolean capped() {
      return total > rows.size();
    }
  }
}
