package org.chartstream.core.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link HybridStore} made of a writer, which takes its {@link StoreWrites}, and a searcher, which answers its
 * {@link StoreReads}; the store adds what needs both or neither (readiness, lifecycle, engine-specific reads).
 */
public interface DelegatingHybridStore extends HybridStore {

  /** The writer that takes this store's {@link StoreWrites}. */
  StoreWrites writes();

  /** The searcher that answers this store's {@link StoreReads}. */
  StoreReads reads();

  @Override
  default void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
    writes().upsertRow(row, generation, chunks);
  }

  @Override
  default void deleteRow(RowRef row) {
    writes().deleteRow(row);
  }

  @Override
  default void publish(TableRef table, long generation) {
    writes().publish(table, generation);
  }

  @Override
  default void commit(Map<String, String> checkpoint) {
    writes().commit(checkpoint);
  }

  @Override
  default Map<String, String> checkpoint() {
    return reads().checkpoint();
  }

  @Override
  default List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
    return reads().vectorSearch(query, k, filter);
  }

  @Override
  default List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    return reads().lexicalSearch(query, k, filter);
  }

  @Override
  default Map<TableRef, Long> activeGenerations() {
    return reads().activeGenerations();
  }

  @Override
  default long countRows(TableRef table) {
    return reads().countRows(table);
  }

  @Override
  default List<StoredChunk> rowChunks(RowRef row) {
    return reads().rowChunks(row);
  }

  @Override
  default long chunkCount() {
    return reads().chunkCount();
  }

  @Override
  default List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter) {
    return reads().patientsNamed(terms, limit, filter);
  }
}
