package org.chartstream.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;
import org.chartstream.core.store.TableRef;

/**
 * One commit as searches see it: a reader showing exactly the committed documents and the same commit's
 * {@link CommittedState}. Immutable; swapped as a whole.
 */
record Snapshot(DirectoryReader reader, IndexSearcher searcher, CommittedState state, int dimension,
    Query activeFilter, boolean onlyActiveVisible) {

  static Snapshot of(DirectoryReader reader, CommittedState state) throws IOException {
    int dimension = state.dimension();
    if (dimension == 0) {
      FieldInfo fi = FieldInfos.getMergedFieldInfos(reader).fieldInfo(LuceneSchema.F_VECTOR);
      if (fi != null) {
        dimension = fi.getVectorDimension();
      }
    }
    Query activeFilter = null;
    IndexSearcher searcher = new IndexSearcher(reader);
    boolean onlyActiveVisible = false;
    if (!state.active().isEmpty()) {
      List<BytesRef> terms = new ArrayList<>(state.active().size());
      state.active().forEach((t, g) -> terms.add(new BytesRef(LuceneSchema.tableGenKey(t, g))));
      activeFilter = new TermInSetQuery(LuceneSchema.F_TABLE_GEN, terms);
      // once per commit: when every live chunk is in an active generation, searches need no generation filter
      onlyActiveVisible = searcher.count(activeFilter) == reader.numDocs();
    }
    return new Snapshot(reader, searcher, state, dimension, activeFilter, onlyActiveVisible);
  }

  Map<TableRef, Long> active() {
    return state.active();
  }

  Map<String, String> checkpoint() {
    return state.checkpoint();
  }
}
