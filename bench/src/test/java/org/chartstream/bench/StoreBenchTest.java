package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.junit.jupiter.api.Test;

class StoreBenchTest {

  @Test
  void theCorpusIsAPureFunctionOfSeedAndIndex() {
    ClusteredCorpus a = new ClusteredCorpus(10_000, 32, 50, 0.04, 42);
    ClusteredCorpus b = new ClusteredCorpus(10_000, 32, 50, 0.04, 42);
    ClusteredCorpus other = new ClusteredCorpus(10_000, 32, 50, 0.04, 43);
    float[] va = new float[32];
    float[] vb = new float[32];
    float[] vo = new float[32];
    a.vector(1234, va, 0);
    b.vector(1234, vb, 0);
    other.vector(1234, vo, 0);
    assertThat(va).containsExactly(vb);
    assertThat(va).isNotEqualTo(vo);
    assertThat(a.text(1234)).isEqualTo(b.text(1234)).isNotEqualTo(other.text(1234));
    assertThat(a.text(1234).split(" ")).hasSize(ClusteredCorpus.WORDS_PER_TEXT);
    assertThat(a.patient(1234)).isEqualTo(b.patient(1234));
    assertThat(a.queryText(3)).isEqualTo(b.queryText(3));
    assertThat(a.patients()).isEqualTo(100);

    double norm = 0;
    for (float f : va) {
      norm += f * f;
    }
    assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
  }

  @Test
  void membersOfOneClusterAreCloserThanMembersOfDifferentClusters() {
    ClusteredCorpus corpus = new ClusteredCorpus(1_000, 384, 1_000, 0.04, 42);
    float[] v = new float[384 * 1_000];
    for (int i = 0; i < 1_000; i++) {
      corpus.vector(i, v, i * 384);
    }
    double same = 0;
    double different = 0;
    int sameN = 0;
    int differentN = 0;
    for (int i = 0; i < 300; i++) {
      for (int j = i + 1; j < 300; j++) {
        double dot = ExactSearch.dot(java.util.Arrays.copyOfRange(v, i * 384, (i + 1) * 384), v, j * 384);
        if (corpus.cluster(i) == corpus.cluster(j)) {
          same += dot;
          sameN++;
        } else {
          different += dot;
          differentN++;
        }
      }
    }
    assertThat(sameN).isPositive();
    assertThat(same / sameN).isGreaterThan(0.3);
    assertThat(Math.abs(different / differentN)).isLessThan(0.05);
  }

  @Test
  void exactTopKMatchesASortedScanAndHonoursThePatient() {
    int dim = 8;
    int n = 500;
    Random r = new Random(5);
    float[] vectors = new float[n * dim];
    int[] patientOf = new int[n];
    for (int i = 0; i < n; i++) {
      float[] v = new float[dim];
      for (int d = 0; d < dim; d++) {
        v[d] = (float) r.nextGaussian();
      }
      System.arraycopy(ClusteredCorpus.normalise(v), 0, vectors, i * dim, dim);
      patientOf[i] = i % 7;
    }
    float[] q = ClusteredCorpus.normalise(new float[] {1, 2, 3, 4, 5, 6, 7, 8});
    List<Integer> expected = IntStream.range(0, n).boxed()
        .sorted(Comparator.comparingDouble((Integer i) -> -ExactSearch.dot(q, vectors, i * dim))).limit(10).toList();
    assertThat(ExactSearch.topK(vectors, dim, q, 10, -1, patientOf)).containsExactly(ints(expected));

    List<Integer> patientThree = IntStream.range(0, n).filter(i -> patientOf[i] == 3).boxed()
        .sorted(Comparator.comparingDouble((Integer i) -> -ExactSearch.dot(q, vectors, i * dim))).limit(10).toList();
    assertThat(ExactSearch.topK(vectors, dim, q, 10, 3, patientOf)).containsExactly(ints(patientThree));
    assertThat(ExactSearch.topK(vectors, dim, q, 10, 99, patientOf)).isEmpty();
  }

  private static int[] ints(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  @Test
  void recallAndPercentileAreComputedAsDocumented() {
    List<SearchHit> hits = new ArrayList<>();
    for (int id : new int[] {4, 9, 2}) {
      RowRef row = new RowRef(StoreBench.SOURCE_ID, "notes", "c" + id);
      hits.add(new SearchHit(ChunkFixture.of(row).text("t").build(), 1.0, hits.size() + 1));
    }
    assertThat(ExactSearch.recall(hits, new int[] {4, 2, 7, 8})).isEqualTo(0.5);
    assertThat(ExactSearch.recall(List.of(), new int[0])).isEqualTo(1.0);
    assertThat(StoreBench.percentile(new double[] {5, 1, 4, 2, 3}, 50)).isEqualTo(3);
    assertThat(StoreBench.percentile(new double[] {5, 1, 4, 2, 3}, 95)).isEqualTo(5);
  }

  @Test
  void aCorpusWithoutChunksIsRefused() {
    assertThatThrownBy(() -> new ClusteredCorpus(0, 384, 10, 0.1, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
