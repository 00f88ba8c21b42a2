package org.chartstream.core.model;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The rerank port: scores (query, passage) pairs, higher meaning more relevant.
 *
 * <p>Scores are operational, not probabilities, and comparable only within one {@linkplain #scorer() scorer}: a
 * cross-encoder's sigmoid and a bi-encoder's cosine live on different scales, so gate thresholds are calibrated per
 * scorer. A passage's score does not depend on the other passages of the call.
 *
 * <p>Implementations are thread-safe.
 */
public interface Reranker extends AutoCloseable {

    /** Scorer of {@code OnnxCrossEncoder} (models module): the sigmoid of a cross-encoder logit, in (0, 1). */
    String CROSS_ENCODER_SIGMOID = "cross-encoder-sigmoid";

    /** Scorer of {@code BiEncoderReranker} (models module): cosine similarity of embeddings, in [-1, 1]. */
    String BI_ENCODER_COSINE = "bi-encoder-cosine";

    /** What the audit records: the kind of reranker and its model, e.g. {@code cross-encoder bge-reranker-v2-m3}. */
    String name();

    /** The score scale ({@link #CROSS_ENCODER_SIGMOID} or {@link #BI_ENCODER_COSINE}). */
    String scorer();

    /** One score per passage, in input order; an empty list gives an empty array without running any model. */
    double[] score(String query, List<String> passages);

    /** Passage positions best first: descending score, equal scores in input order. */
    static int[] ranking(double[] scores) {
        return IntStream.range(0, scores.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparingInt(i -> i))
                .mapToInt(Integer::intValue).toArray();
    }

    /** Releases native resources; later calls fail with {@link IllegalStateException}. Idempotent. */
    @Override
    void close();
}
