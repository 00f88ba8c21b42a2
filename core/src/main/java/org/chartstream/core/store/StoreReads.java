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

  Map<TableRef, Long> activeGenerations();

  List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter);

  List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter);

  List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter);

  long countRows(TableRef table);

  List<StoredChunk> rowChunks(RowRef row);

  long chunkCount();
}
