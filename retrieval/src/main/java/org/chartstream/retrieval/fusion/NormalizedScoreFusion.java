package org.chartstream.retrieval.fusion;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.chartstream.retrieval.Candidate;

/**
 * Convex combination of min-max normalised side scores: score(d) = w · v(d) + (1 − w) · l(d), where v and l are the
 * vector and lexical scores scaled to [0, 1] within each side's result list (the list's best hit 1, its weakest 0;
 * a list whose scores are all equal gives 1), and a side that did not return d contributes 0. With several query
 * variants a candidate keeps its best normalised score per side. Ties are broken as {@link Fusion} says.
 *
 * <p>Why not only ranks: reciprocal rank fusion keeps a side's order but drops how far ahead its first hits are. An
 * exact code or name match makes BM25 score one row far above the rest while the embedding scores every row of the
 * same kind alike; RRF then lets the vector side's near-ties outvote the exact match. Measured on the clinical
 * question set and liveqa-med-clean (docs/history/EVALUATION-sessions-1-21.md, "liveqa-med-clean" and "Clinical
 * question set"): with w = {@value #DEFAULT_VECTOR_WEIGHT} this fusion is at least as good as the better side on both,
 * where RRF falls below BM25 on the clinical set.
 */
public final class NormalizedScoreFusion {
    /** Weight of the vector side; the lexical side gets the rest. */
    public static final double DEFAULT_VECTOR_WEIGHT = 0.4;

    private NormalizedScoreFusion() {
    }

    /** Fuses one vector and one lexical result list. */
    public static List<Candidate> fuse(List<Candidate> vector, List<Candidate> lexical, double vectorWeight) {
        return fuseAll(List.of(vector), List.of(lexical), vectorWeight);
    }

    /** Fuses every side of every query variant: one vector and one lexical result list per variant. */
    public static List<Candidate> fuseAll(List<List<Candidate>> vectorLists, List<List<Candidate>> lexicalLists,
                                          double vectorWeight) {
        if (!(vectorWeight >= 0 && vectorWeight <= 1)) {
            throw new IllegalArgumentException("vector weight must be within [0, 1], got " + vectorWeight);
        }
        Map<String, double[]> normalised = new HashMap<>(); // chunk id -> {best vector norm, best lexical norm}
        vectorLists.forEach(list -> add(normalised, list, 0, Candidate::vectorScore));
        lexicalLists.forEach(list -> add(normalised, list, 1, Candidate::lexicalScore));
        return FusedList.ranked(FusedList.merged(vectorLists, lexicalLists), chunkId -> {
            double[] n = normalised.get(chunkId);
            return vectorWeight * n[0] + (1 - vectorWeight) * n[1];
        });
    }

    private static void add(Map<String, double[]> normalised, List<Candidate> list, int side,
                            ToDoubleFunction<Candidate> sideScore) {
        if (list.isEmpty()) {
            return;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Candidate c : list) {
            min = Math.min(min, sideScore.applyAsDouble(c));
            max = Math.max(max, sideScore.applyAsDouble(c));
        }
        for (Candidate c : list) {
            double score = sideScore.applyAsDouble(c);
            double n = max > min ? (score - min) / (max - min) : 1.0;
            double[] best = normalised.computeIfAbsent(c.chunk().chunkId(), id -> new double[2]);
            best[side] = Math.max(best[side], n);
        }
    }
}
