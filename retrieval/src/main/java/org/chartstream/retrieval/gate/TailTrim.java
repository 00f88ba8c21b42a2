package org.chartstream.retrieval.gate;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.retrieval.Candidate;

/**
 * Drops reranked candidates scoring below half the gate threshold: they rarely support an answer and they crowd the
 * context. At least one candidate (the best scoring) stays, so the gate and the answer still see the strongest
 * evidence. A threshold of zero or below trims nothing.
 */
public final class TailTrim {
    private TailTrim() {
    }

    /**
     * The candidates whose {@linkplain Candidate#rerankScore() rerank score} is at least {@code gateThreshold / 2}, in
     * their input order; the best one when none is.
     */
    public static List<Candidate> trim(List<Candidate> reranked, double gateThreshold) {
        if (reranked.isEmpty() || gateThreshold <= 0) {
            return List.copyOf(reranked);
        }
        double cutoff = gateThreshold / 2;
        List<Candidate> kept = new ArrayList<>();
        Candidate best = reranked.get(0);
        for (Candidate c : reranked) {
            if (c.rerankScore() >= cutoff) {
                kept.add(c);
            }
            if (c.rerankScore() > best.rerankScore()) {
                best = c;
            }
        }
        return kept.isEmpty() ? List.of(best) : List.copyOf(kept);
    }
}
