package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.CHECKPOINT_PREFIX;
import static org.chartstream.store.lucene.LuceneSchema.META_DIMENSION;
import static org.chartstream.store.lucene.LuceneSchema.META_GENERATION_PREFIX;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.core.store.TableRef;

/** What one commit's user data says: active generations, checkpoint, vector dimension (0 if none recorded). */
record CommittedState(Map<TableRef, Long> active, Map<String, String> checkpoint, int dimension) {

  static CommittedState of(Iterable<Map.Entry<String, String>> userData) {
    Map<TableRef, Long> active = new LinkedHashMap<>();
    Map<String, String> checkpoint = new TreeMap<>();
    int dimension = 0;
    if (userData != null) {
      for (Map.Entry<String, String> e : userData) {
        String key = e.getKey();
        if (key.startsWith(CHECKPOINT_PREFIX)) {
          checkpoint.put(key.substring(CHECKPOINT_PREFIX.length()), e.getValue());
        } else if (key.startsWith(META_GENERATION_PREFIX)) {
          active.put(LuceneSchema.tableOfGenerationKey(key.substring(META_GENERATION_PREFIX.length())),
              Long.parseLong(e.getValue()));
        } else if (key.equals(META_DIMENSION)) {
          dimension = Integer.parseInt(e.getValue());
        }
      }
    }
    return new CommittedState(Collections.unmodifiableMap(active), Collections.unmodifiableMap(checkpoint),
        dimension);
  }
}
