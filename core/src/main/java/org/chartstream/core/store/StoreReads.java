package org.chartstream.core.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reads of a {@link HybridStore} that its searcher answers alone, over what the store last committed; each
 * method means what the {@link HybridStore} method of the same name promises.
 */
public interface StoreReads {
  Map<String, String> checkpoint();

  List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter);

  List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter);

  Map<TableRef, Long> activeGenerations();

  long countRows(TableRef table);

  List<StoredChunk> rowChunks(RowRef row);

  long chunkCount();

  List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter);
}
