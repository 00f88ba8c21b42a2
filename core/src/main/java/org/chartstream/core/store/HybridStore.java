package org.chartstream.core.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;

/**
 * The hybrid (dense + lexical) chunk store: a materialised view of the chunk/generation log.
 *
 * <p>Write model: {@link #upsertRow}, {@link #deleteRow} and {@link #publish} are staged; {@link #commit} makes all
 * of them durable and visible at once, together with the checkpoint (the position in the log that the store has
 * materialised). A reader sees all of a commit or none of it: all of a table's old generation or all of the new
 * one, never a mix, and never a row twice or not at all.
 *
 * <p>Read model: searches and lookups only see chunks of each table's <em>active</em> (published and committed)
 * generation. A table that was never published is invisible. Filters are exact and are applied inside the search,
 * so a selective filter still returns up to {@code k} hits.
 *
 * <p>Writes are meant to come from one materialising thread; reads may run concurrently from any thread.
 */
public interface HybridStore extends AutoCloseable {

  /**
   * Replaces all chunks of {@code row} in {@code generation} with {@code chunks} as one step (an empty list removes
   * the row from that generation). Other generations of the row are untouched. Every chunk must belong to
   * {@code row} and {@code generation}. Writes into a generation older than the table's active one are ignored.
   *
   * @throws IllegalArgumentException on a chunk of another row or generation, a missing or zero vector, or a vector
   *     dimension that differs from the store's
   */
  void upsertRow(RowRef row, long generation, List<StoredChunk> chunks);

  /** Removes the row's chunks from every generation. */
  void deleteRow(RowRef row);

  /**
   * Makes {@code generation} the table's active generation at the next commit. Publishing the active generation
   * again is a no-op; publishing an older generation than the active one is ignored (and logged). Chunks of the
   * table's older generations may be removed at the commit that publishes.
   */
  void publish(TableRef table, long generation);

  /**
   * Makes every write since the last commit durable and visible at once, and stores {@code checkpoint} in the same
   * atomic commit. A {@code null} checkpoint keeps the previous one.
   */
  void commit(Map<String, String> checkpoint);

  /**
   * Makes every write since the last commit visible at once, as {@link #commit} would, without waiting for it to be
   * durable: the next commit makes it durable, with that commit's checkpoint (a crash before then loses it, and the
   * materialiser replays it from the log, whose position the last commit's checkpoint holds). Readers still see all
   * of it or none of it. The default commits, keeping the checkpoint.
   */
  default void refresh() {
    commit(null);
  }

  /** The checkpoint of the last commit (also after a reopen); empty if none. */
  Map<String, String> checkpoint();

  /**
   * Approximate nearest neighbours by cosine similarity among the active generations' chunks that pass
   * {@code filter}, best first. Each hit's chunk carries its float32 vector, exactly the one {@link #rowChunks}
   * returns for it (a reranker scores candidates with it instead of asking the store again).
   *
   * @throws IllegalArgumentException if {@code k < 1} or the query's dimension differs from the store's
   */
  List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter);

  /**
   * BM25 over the chunk text (a store may score a chunk by its whole row's text; then a row's chunks share the row's
   * score). The text is never parsed as query syntax: terms are ORed, and double-quoted parts of the text are matched
   * as phrases. Returns an empty list when the text has no searchable term. Each hit's chunk carries its float32
   * vector, as in {@link #vectorSearch}.
   *
   * @throws IllegalArgumentException if {@code k < 1}
   */
  List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter);

  /**
   * BM25 as {@link #lexicalSearch} scores each text, weighted and summed: a row's score is Σ weightᵢ · BM25(textᵢ),
   * so expansion terms can count for less than the question's own words. Returns an empty list when no text has a
   * searchable term. A store whose engine cannot weight terms ({@link #weighsLexicalTerms} false; the default) runs
   * the texts joined as one plain {@link #lexicalSearch}, every term counting once whatever its weight.
   *
   * @throws IllegalArgumentException if {@code k < 1}
   */
  default List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
    return lexicalSearch(String.join(" ", query.stream().map(WeightedText::text).toList()), k, filter);
  }

  /**
   * Whether {@link #weightedLexicalSearch} applies the weights; false when it falls back to the plain query (a
   * caller that needs weights, such as lexical feedback, then skips its second search).
   */
  default boolean weighsLexicalTerms() {
    return false;
  }

  /** The committed active generation of every published table. */
  Map<TableRef, Long> activeGenerations();

  /** Distinct rows of the table's active generation (0 if the table has none). */
  long countRows(TableRef table);

  /** The active generation's chunks of {@code row} in chunk order (empty if none): for parent-row expansion. */
  List<StoredChunk> rowChunks(RowRef row);

  /** Chunks that searches can currently return (those of the active generations). */
  long chunkCount();

  /** Open, and at least one generation is published and committed. */
  boolean ready();

  /**
   * Set when the store found an index it cannot keep (written by an older index format) and opened empty instead:
   * its materialiser then replays the whole log to rebuild it. Empty otherwise.
   */
  default Optional<String> rebuildReason() {
    return Optional.empty();
  }

  /**
   * The store's exact-term lookups over its indexed text ({@link TermIndex}), which cohort questions need; empty for
   * a store that has none (then every question takes the ranked path).
   */
  default Optional<TermIndex> termIndex() {
    return Optional.empty();
  }

  /**
   * The distinct patients of the active generations' rows that pass {@code filter} and whose name, number or key has
   * one of {@code terms} among its {@link PatientTerms} (a folded word each), those holding most of the terms first,
   * then in patient key order ({@link PatientTerms#mostMatching}), at most {@code limit}; each with the
   * {@link PatientLabel} of its first such row in row id order (a patient whose chunks carry no label, written before
   * chunks carried one, is found by its key only and returned without one). The default knows no patient: a store
   * that keeps no patient terms.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  default List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1: " + limit);
    }
    return List.of();
  }

  /**
   * Whether {@link #rowSet} answers: the store keeps the rows' fields (written by an ingest whose chunks carry them)
   * indexed for exact matching and aggregation. A caller that needs an exact set and gets false here says it cannot
   * give one rather than answering from a top k.
   */
  default boolean answersRowSets() {
    return false;
  }

  /**
   * The exact answer to {@code query} over the active generations' rows: each row counted once (by its first chunk,
   * which holds the row's {@link StoredChunk#fields}), staged, retired and deleted rows never. A field no row has is
   * an empty set, not an error. Throws for a store whose {@link #answersRowSets} is false.
   *
   * @throws UnsupportedOperationException if the store answers no row-set query
   */
  default RowSetResult rowSet(RowSetQuery query) {
    throw new UnsupportedOperationException("this store keeps no row fields to answer a row-set query");
  }

  /**
   * Rows of the active generations that pass {@code filter} and carry no fields at all: written before chunks carried
   * them (an index log from before, replayed) or with nothing shown. A row set cannot judge their fields ("no stop
   * date" would hold for them), so a caller that gets more than 0 here for its tables says its set may be incomplete
   * until they are indexed again (a re-index). Throws as {@link #rowSet} does.
   *
   * @throws UnsupportedOperationException if the store answers no row-set query
   */
  default long rowsWithoutFields(RetrievalFilter filter) {
    throw new UnsupportedOperationException("this store keeps no row fields to answer a row-set query");
  }

  /** Releases the store. Uncommitted writes are discarded. */
  @Override
  void close();
}
