package org.chartstream.core.store;

import java.util.Random;

/**
 * Deterministic clustered vectors: every topic has a fixed random centroid, and a member is its centroid plus a
 * little seeded noise. HNSW recall on such data is high (unlike uniform random vectors), so tests can expect exact
 * neighbours.
 */
public final class TestVectors {

  public static final int DIM = 16;

  private static final double NOISE = 0.08;

  private TestVectors() {}

  /** The unit centroid of a topic. */
  public static float[] centroid(int topic) {
    return centroid(topic, DIM);
  }

  public static float[] centroid(int topic, int dim) {
    Random r = new Random(1_000_003L * (topic + 1));
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return normalise(v);
  }

  /** A member of {@code topic}; the same (topic, seed) always gives the same vector. */
  public static float[] member(int topic, long seed) {
    float[] c = centroid(topic);
    Random r = new Random(seed * 31 + topic);
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) (c[i] + NOISE * r.nextGaussian());
    }
    return normalise(v);
  }

  public static float[] normalise(float[] v) {
    double n = 0;
    for (float f : v) {
      n += (double) f * f;
    }
    double inv = 1 / Math.sqrt(n);
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] * inv);
    }
    return out;
  }
}
