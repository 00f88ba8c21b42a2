package org.chartstream.retrieval.fusion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Convex combination of min-max normalised side scores: score(d) = w · v(d) + (1 − w) · l(d), where v and l are the
 * vector and lexical scores scaled to [0, 1] within each side's result list (the list's best hit 1, its weakest 0;
 * a list whose scores are all equal gives 1), and a side that did not return d contributes 0. With several query
 * variants a candidate keeps its best normalised score per side. Ties are broken by id.
 *
 * <p>Why not only ranks: reciprocal rank fusion keeps a side's order but drops how far ahead its first hits are. An
 * exact code or name match makes BM25 score one row far above the rest while the embedding scores every row of the
 * same kind alike; RRF then lets the vector side's near-ties outvote the exact match. Measured on the clinical
 * question set and liveqa-med-clean (docs/EVALUATION.md): with w = {@value #DEFAULT_VECTOR_WEIGHT} this fusion is at
 * least as good as the better side on both, where RRF falls below BM25 on the clinical set.
 */
public final class NormalizedScoreFusion {
    /** Weight of the vector side; the lexical side gets the rest. */
    public static final double DEFAULT_VECTOR_WEIGHT = 0.4;

    /** An id with its side's own score (cosine for the vector side, BM25 for the lexical side), best first. */
    public record ScoredId(String id, double score) {
    }

    private NormalizedScoreFusion() {
    }

    /** Fuses one vector and one lexical result list. */
    public static List<FusedCandidate> fuse(List<ScoredId> vector, List<ScoredId> lexical, double vectorWeight) {
        return fuseAll(List.of(vector), List.of(lexical), vectorWeight);
    }

    /** Fuses every side of every query variant: one vector and one lexical result list per variant. */
    public static List<FusedCandidate> fuseAll(List<List<ScoredId>> vectorLists, List<List<ScoredId>> lexicalLists, double vectorWeight) {
        if (!(vectorWeight >= 0 && vectorWeight <= 1)) {
            throw new IllegalArgumentException("vector weight must be within [0, 1], got " + vectorWeight);
        }
        Map<String, double[]> acc = new LinkedHashMap<>(); // id -> {vector norm, lexical norm, vector rank, lexical rank}
        vectorLists.forEach(list -> add(acc, list, 0));
        lexicalLists.forEach(list -> add(acc, list, 1));
        List<FusedCandidate> fused = new ArrayList<>(acc.size());
        acc.forEach((id, a) -> fused.add(new FusedCandidate(id, vectorWeight * a[0] + (1 - vectorWeight) * a[1], (int) a[2], (int) a[3])));
        fused.sort(Comparator.comparingDouble(FusedCandidate::score).reversed().thenComparing(FusedCandidate::id));
        return fused;
    }

    private static void add(Map<String, double[]> acc, List<ScoredId> list, int side) {
        if (list.isEmpty()) {
            return;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (ScoredId s : list) {
            min = Math.min(min, s.score());
            max = Math.max(max, s.score());
        }
        for (int i = 0; i < list.size(); i++) {
            ScoredId s = list.get(i);
            double normalised = max > min ? (s.score() - min) / (max - min) : 1.0;
            double[] a = acc.computeIfAbsent(s.id(), id -> new double[4]);
            a[side] = Math.max(a[side], normalised);
            a[side + 2] = a[side + 2] == 0 ? i + 1 : Math.min(a[side + 2], i + 1);
        }
    }
}
