package org.chartstream.retrieval.rerank;

import java.util.List;
import java.util.Locale;

/**
 * How many fused candidates go to the reranker: at least {@code max(top_k, minCandidates)}, at most
 * {@code maxCandidates}, and in between the list is cut at the first elbow, where a fused score falls below
 * {@code dropRatio} × the score before it. Past an elbow the candidates are much weaker (with RRF typically: found by
 * one search side only instead of both), and reranking them costs cross-encoder time for little gain.
 *
 * @param minCandidates lower bound of the prefix when {@code top_k} is smaller
 * @param maxCandidates upper bound of the prefix (raised to {@code top_k} when that is larger)
 * @param dropRatio     an elbow is a score below this fraction of the previous one
 */
public record AdaptiveRerankPrefix(int minCandidates, int maxCandidates, double dropRatio) {

    /**
     * Between max(top_k, 8) and 30, cut where a score falls below 0.65 × the previous (docs/ARCHITECTURE.md,
     * "Query-side defaults").
     */
    public static final AdaptiveRerankPrefix DEFAULT = new AdaptiveRerankPrefix(8, 30, 0.65);

    /** The prefix length and why it is that long (for the audit). */
    public record Cut(int length, String reason) {
    }

    public AdaptiveRerankPrefix {
        if (minCandidates < 1 || maxCandidates < minCandidates) {
            throw new IllegalArgumentException("need 1 ≤ minCandidates ≤ maxCandidates, got " + minCandidates + " and " + maxCandidates);
        }
        if (!(dropRatio > 0 && dropRatio < 1)) {
            throw new IllegalArgumentException("dropRatio must be within (0, 1), was " + dropRatio);
        }
    }

    /** Where to cut fused scores listed best first. */
    public Cut cut(List<Double> fusedScoresBestFirst, int topK) {
        int n = fusedScoresBestFirst.size();
        int floor = Math.max(topK, minCandidates);
        int ceiling = Math.max(maxCandidates, floor);
        if (n <= floor) {
            return new Cut(n, "all " + n + " candidates (minimum prefix " + floor + ")");
        }
        for (int i = floor; i < Math.min(n, ceiling); i++) {
            double previous = fusedScoresBestFirst.get(i - 1);
            double current = fusedScoresBestFirst.get(i);
            if (current < dropRatio * previous) {
                return new Cut(i, String.format(Locale.ROOT, "elbow after %d: %.4f < %.2f × %.4f", i, current,
                        dropRatio, previous));
            }
        }
        if (n <= ceiling) {
            return new Cut(n, "no elbow: all " + n + " candidates");
        }
        return new Cut(ceiling, "no elbow: capped at " + ceiling);
    }
}
