package org.chartstream.retrieval.gate;

/**
 * Refuses when the best evidence scores below a threshold. The threshold belongs to the scorer in use (a
 * cross-encoder's sigmoid and a bi-encoder's cosine live on different scales), so the scorer is named with it.
 */
public final class EvidenceGate {
    private final String scorer;
    private final double threshold;

    public EvidenceGate(String scorer, double threshold) {
        if (threshold < -1 || threshold > 1) {
            throw new IllegalArgumentException("gate threshold must be within [-1, 1], got " + threshold);
        }
        this.scorer = scorer;
        this.threshold = threshold;
    }

    public GateDecision decide(double bestScore, int candidates) {
        if (candidates == 0) {
            return new GateDecision(false, scorer, 0, threshold, "nothing retrieved");
        }
        if (bestScore < threshold) {
            return new GateDecision(false, scorer, bestScore, threshold, "best evidence below threshold");
        }
        return new GateDecision(true, scorer, bestScore, threshold, "evidence above threshold");
    }
}
