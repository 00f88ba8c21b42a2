package org.chartstream.bench;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chartstream.core.store.SearchHit;

/** The ground truth of {@link StoreBench}'s recall: an exact scan over a copy of the indexed vectors. */
final class ExactSearch {
  private ExactSearch() {}

  /**
   * The exact top {@code k} chunk ordinals by dot product (cosine: all vectors are unit length), best first; only
   * chunks of {@code patient} when it is not negative.
   */
  static int[] topK(float[] vectors, int dim, float[] q, int k, int patient, int[] patientOf) {
    int[] best = new int[k];
    float[] bestScore = new float[k];
    Arrays.fill(bestScore, Float.NEGATIVE_INFINITY);
    int found = 0;
    int chunks = vectors.length / dim;
    for (int i = 0; i < chunks; i++) {
      if (patient >= 0 && patientOf[i] != patient) {
        continue;
      }
      float score = dot(q, vectors, i * dim);
      if (found == k && score <= bestScore[k - 1]) {
        continue;
      }
      int pos = Math.min(found, k - 1);
      while (pos > 0 && bestScore[pos - 1] < score) {
        bestScore[pos] = bestScore[pos - 1];
        best[pos] = best[pos - 1];
        pos--;
      }
      bestScore[pos] = score;
      best[pos] = i;
      found = Math.min(found + 1, k);
    }
    return Arrays.copyOf(best, found);
  }

  /** Dot product of {@code q} with the vector at {@code offset}, four accumulators as Lucene's scalar code does. */
  static float dot(float[] q, float[] vectors, int offset) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int d = 0;
    for (int upper = q.length & ~3; d < upper; d += 4) {
      s0 += q[d] * vectors[offset + d];
      s1 += q[d + 1] * vectors[offset + d + 1];
      s2 += q[d + 2] * vectors[offset + d + 2];
      s3 += q[d + 3] * vectors[offset + d + 3];
    }
    for (; d < q.length; d++) {
      s0 += q[d] * vectors[offset + d];
    }
    return s0 + s1 + s2 + s3;
  }

  /** Share of the exact top ids that the search returned (1 when there is nothing to find and nothing found). */
  static double recall(List<SearchHit> hits, int[] truth) {
    if (truth.length == 0) {
      return hits.isEmpty() ? 1 : 0;
    }
    Set<Integer> returned = new HashSet<>();
    for (SearchHit h : hits) {
      returned.add(Integer.parseInt(h.chunk().row().rowKey().substring(1)));
    }
    int overlap = 0;
    for (int t : truth) {
      overlap += returned.contains(t) ? 1 : 0;
    }
    return (double) overlap / truth.length;
  }
}
