package org.chartstream.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A deterministic synthetic corpus for store benchmarks: unit vectors around Gaussian cluster centroids (embeddings
 * of real text cluster by topic; uniform random vectors would make every approximate index look broken) and
 * pseudo-word text whose topic words follow the same clusters, so BM25 has term statistics to work with.
 *
 * <p>Every chunk, query and field is a pure function of (seed, index): generation can run on any number of threads
 * and two runs with the same seed build the same corpus.
 */
public final class ClusteredCorpus {

  static final String[] TABLES = {"notes", "encounters", "conditions", "medications"};
  static final int WORDS_PER_TEXT = 40;
  static final int TOPIC_WORDS_PER_CLUSTER = 24;
  static final int VOCABULARY_SIZE = 8_000;
  /** Chunks per patient on average: a patient filter keeps about this many rows. */
  static final int CHUNKS_PER_PATIENT = 100;

  private static final String[] SYLLABLES = {
      "ab", "ac", "al", "an", "ar", "ba", "be", "bi", "co", "cra", "da", "de", "di", "do", "en", "er", "fa", "fe",
      "fi", "ga", "ge", "gli", "ha", "he", "hy", "il", "in", "ka", "la", "le", "li", "lo", "ma", "me", "mi", "mo",
      "na", "ne", "ni", "no", "ol", "om", "on", "or", "pa", "pe", "pi", "po", "ra", "re", "ri", "ro", "sa", "se",
      "si", "so", "ta", "te", "ti", "to", "tra", "ul", "um", "va", "ve", "vi", "xa", "zo"};

  private final int dimension;
  private final int clusters;
  private final double noise;
  private final long seed;
  private final int patients;
  private final float[][] centroids;
  private final String[] vocabulary;
  private final int[][] topicWords;

  /**
   * @param chunks chunks in the corpus (sets the number of patients)
   * @param dimension vector dimension
   * @param clusters number of cluster centroids
   * @param noise standard deviation of the per-component Gaussian noise added to a centroid before normalising
   * @param seed the corpus seed
   */
  public ClusteredCorpus(int chunks, int dimension, int clusters, double noise, long seed) {
    if (chunks < 1 || dimension < 2 || clusters < 1 || noise < 0) {
      throw new IllegalArgumentException("chunks, dimension and clusters must be positive, noise >= 0");
    }
    this.dimension = dimension;
    this.clusters = clusters;
    this.noise = noise;
    this.seed = seed;
    this.patients = Math.max(1, chunks / CHUNKS_PER_PATIENT);
    this.centroids = new float[clusters][];
    for (int c = 0; c < clusters; c++) {
      SplittableRandom r = random(1, c);
      float[] v = new float[dimension];
      for (int d = 0; d < dimension; d++) {
        v[d] = (float) r.nextGaussian();
      }
      centroids[c] = normalise(v);
    }
    this.vocabulary = vocabulary(random(2, 0));
    this.topicWords = new int[clusters][TOPIC_WORDS_PER_CLUSTER];
    for (int c = 0; c < clusters; c++) {
      SplittableRandom r = random(3, c);
      for (int w = 0; w < TOPIC_WORDS_PER_CLUSTER; w++) {
        topicWords[c][w] = r.nextInt(VOCABULARY_SIZE);
      }
    }
  }

  public int dimension() {
    return dimension;
  }

  public int patients() {
    return patients;
  }

  /** The cluster of chunk {@code i}. */
  public int cluster(long i) {
    return (int) Long.remainderUnsigned(mix(seed, 4, i), clusters);
  }

  /** Writes chunk {@code i}'s unit vector into {@code out} at {@code offset}. */
  public void vector(long i, float[] out, int offset) {
    memberOf(cluster(i), random(5, i), out, offset);
  }

  /** The pseudo-word text of chunk {@code i}: mostly its cluster's topic words, the rest skewed over the vocabulary. */
  public String text(long i) {
    SplittableRandom r = random(6, i);
    int[] topic = topicWords[cluster(i)];
    StringBuilder sb = new StringBuilder(WORDS_PER_TEXT * 8);
    for (int w = 0; w < WORDS_PER_TEXT; w++) {
      if (w > 0) {
        sb.append(' ');
      }
      sb.append(r.nextInt(2) == 0 ? vocabulary[topic[r.nextInt(topic.length)]] : vocabulary[skewed(r)]);
    }
    return sb.toString();
  }

  /** The patient key of chunk {@code i}. */
  public String patient(long i) {
    return "patient-" + patientIndex(i);
  }

  /** The patient of chunk {@code i} as a number in [0, {@link #patients()}). */
  public int patientIndex(long i) {
    return (int) Long.remainderUnsigned(mix(seed, 7, i), patients);
  }

  /** The table of chunk {@code i}. */
  public String table(long i) {
    return TABLES[(int) Long.remainderUnsigned(mix(seed, 8, i), TABLES.length)];
  }

  /** Query {@code j}'s vector: a fresh member of a random cluster (not a copy of any chunk). */
  public float[] queryVector(int j) {
    SplittableRandom r = random(9, j);
    float[] out = new float[dimension];
    memberOf(r.nextInt(clusters), r, out, 0);
    return out;
  }

  /** Query {@code j}'s lexical text: two topic words of a random cluster and one vocabulary word. */
  public String queryText(int j) {
    SplittableRandom r = random(10, j);
    int[] topic = topicWords[r.nextInt(clusters)];
    return vocabulary[topic[r.nextInt(topic.length)]] + " " + vocabulary[topic[r.nextInt(topic.length)]] + " "
        + vocabulary[skewed(r)];
  }

  private void memberOf(int cluster, SplittableRandom r, float[] out, int offset) {
    float[] c = centroids[cluster];
    double norm = 0;
    for (int d = 0; d < dimension; d++) {
      float v = (float) (c[d] + noise * r.nextGaussian());
      out[offset + d] = v;
      norm += (double) v * v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int d = 0; d < dimension; d++) {
      out[offset + d] *= inv;
    }
  }

  /** Skewed towards low indexes, as word frequencies are. */
  private static int skewed(SplittableRandom r) {
    double u = r.nextDouble();
    return (int) (VOCABULARY_SIZE * u * u * u);
  }

  private static String[] vocabulary(SplittableRandom r) {
    Set<String> words = new LinkedHashSet<>();
    while (words.size() < VOCABULARY_SIZE) {
      int syllables = 2 + r.nextInt(3);
      StringBuilder w = new StringBuilder();
      for (int s = 0; s < syllables; s++) {
        w.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
      }
      words.add(w.toString());
    }
    return new ArrayList<>(words).toArray(String[]::new);
  }

  private SplittableRandom random(int stream, long index) {
    return new SplittableRandom(mix(seed, stream, index));
  }

  /** A well-spread 64-bit hash of (seed, stream, index) (SplitMix64 finaliser). */
  static long mix(long seed, int stream, long index) {
    long z = seed * 0x9E3779B97F4A7C15L + stream * 0xBF58476D1CE4E5B9L + index * 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  static float[] normalise(float[] v) {
    double norm = 0;
    for (float f : v) {
      norm += (double) f * f;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
