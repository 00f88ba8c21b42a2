package org.chartstream.core.store;

import java.util.List;
import java.util.Map;

/**
 * The staged writes and the commit of a {@link HybridStore}, as its writer takes them; each method means what the
 * {@link HybridStore} method of the same name promises.
 */
public interface StoreWrites {
  void upsertRow(RowRef row, long generation, List<StoredChunk> chunks);

  void deleteRow(RowRef row);

  void publish(TableRef table, long generation);

  void commit(Map<String, String> checkpoint);
}
