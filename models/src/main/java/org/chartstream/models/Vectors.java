package org.chartstream.models;

/** Small helpers over embedding vectors. */
public final class Vectors {
    private Vectors() {}

    /** Dot product; equals the cosine for L2-normalised vectors. */
    public static float dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return (float) s;
    }

    /** Euclidean norm. */
    public static float norm(float[] a) {
        double s = 0;
        for (float v : a) {
            s += (double) v * v;
        }
        return (float) Math.sqrt(s);
    }

    /** Cosine similarity of arbitrary (not necessarily normalised) vectors; 0 when either is all zeros. */
    public static float cosine(float[] a, float[] b) {
        float na = norm(a), nb = norm(b);
        if (na == 0f || nb == 0f) {
            return 0f;
        }
        return dot(a, b) / (na * nb);
    }

    /** Scales {@code v} in place to unit length (left unchanged when all zeros) and returns it. */
    public static float[] normalizeInPlace(float[] v) {
        float n = norm(v);
        if (n > 0f) {
            float inv = 1f / n;
            for (int i = 0; i < v.length; i++) {
                v[i] *= inv;
            }
        }
        return v;
    }
}
