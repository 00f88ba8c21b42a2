package org.chartstream.store.lucene;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;

/**
 * The float32 vectors of documents exactly as they were written: each leaf's raw float vector values (the
 * quantised copy only serves the HNSW graph). Reading one is an iterator step and a copy of {@code dimension}
 * floats from the memory-mapped vector data, next to nothing beside the stored fields a hit decodes anyway.
 */
final class RawVectors {

  private RawVectors() {}

  /**
   * The vector of each of {@code docs} (index-wide document ids, distinct, in any order), in the same order;
   * {@code null} for a document without one.
   */
  static float[][] of(IndexReader reader, int[] docs) throws IOException {
    float[][] out = new float[docs.length][];
    List<LeafReaderContext> leaves = reader.leaves();
    int[] byDoc = IntStream.range(0, docs.length).boxed().sorted(Comparator.comparingInt(i -> docs[i]))
        .mapToInt(Integer::intValue).toArray();
    int leafIndex = -1;
    LeafReaderContext leaf = null;
    FloatVectorValues values = null;
    KnnVectorValues.DocIndexIterator it = null;
    // ascending documents: each leaf's iterator only moves forward
    for (int i : byDoc) {
      int doc = docs[i];
      int index = ReaderUtil.subIndex(doc, leaves);
      if (index != leafIndex) {
        leafIndex = index;
        leaf = leaves.get(index);
        values = leaf.reader().getFloatVectorValues(LuceneSchema.F_VECTOR);
        it = values == null ? null : values.iterator();
      }
      int local = doc - leaf.docBase;
      if (it != null && (it.docID() < local ? it.advance(local) : it.docID()) == local) {
        out[i] = values.vectorValue(it.index()).clone();
      }
    }
    return out;
  }
}
