package org.chartstream.retrieval.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Drops reranked passages scoring below half the gate threshold: they rarely support an answer and they crowd the
 * context. At least one passage (the best scoring) stays, so the gate and the answer still see the strongest
 * evidence. A threshold of zero or below trims nothing.
 */
public final class TailTrim {
    private TailTrim() {
    }

    /** The passages scoring at least {@code gateThreshold / 2}, in their input order; the best one when none does. */
    public static <T> List<T> trim(List<T> passages, ToDoubleFunction<T> score, double gateThreshold) {
        if (passages.isEmpty() || gateThreshold <= 0) {
            return List.copyOf(passages);
        }
        double cutoff = gateThreshold / 2;
        List<T> kept = new ArrayList<>();
        T best = passages.get(0);
        for (T p : passages) {
            if (score.applyAsDouble(p) >= cutoff) {
                kept.add(p);
            }
            if (score.applyAsDouble(p) > score.applyAsDouble(best)) {
                best = p;
            }
        }
        return kept.isEmpty() ? List.of(best) : List.copyOf(kept);
    }
}
