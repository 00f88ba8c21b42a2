package org.chartstream.retrieval.rerank;

import org.chartstream.core.model.Reranker;

/**
 * The scale of a reranker's scores, which decides the rerank stage (a cross-encoder reorders the prefix; a bi-encoder
 * scores it in fused order with the stored vectors) and which gate threshold applies.
 */
public enum ScoreScale {
    CROSS_ENCODER_SIGMOID,
    BI_ENCODER_COSINE;

    /** The scale of {@code reranker}'s {@link Reranker#scorer()}: any scorer but a cross-encoder's is a cosine. */
    public static ScoreScale of(Reranker reranker) {
        return Reranker.CROSS_ENCODER_SIGMOID.equals(reranker.scorer()) ? CROSS_ENCODER_SIGMOID : BI_ENCODER_COSINE;
    }
}
