package org.chartstream.retrieval.rerank;

import java.util.List;
import org.chartstream.retrieval.Candidate;

/**
 * What the rerank stage did, for the next stages and the audit.
 *
 * @param ranked       the reranked prefix, best first, one candidate per row
 * @param prefix       how many fused candidates were reranked and why
 * @param reranker     the reranker's audit name (says when no cross-encoder is configured)
 * @param scorer       the scale of {@link Candidate#rerankScore()}, which the gate's threshold must belong to
 */
public record RerankOutcome(List<Candidate> ranked, AdaptiveRerankPrefix.Cut prefix, String reranker, String scorer) {
    public RerankOutcome {
        ranked = List.copyOf(ranked);
    }

    /** The best score, or {@link Double#NEGATIVE_INFINITY} when nothing was reranked. */
    public double bestScore() {
        return ranked.isEmpty() ? Double.NEGATIVE_INFINITY : ranked.get(0).rerankScore();
    }
}
