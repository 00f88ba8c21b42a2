package org.chartstream.retrieval.fusion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion: score(d) = Σ 1 / (k + rank(d)) over the rankings that contain d. Ties are broken by id
 * so the fused order is deterministic.
 */
public final class ReciprocalRankFusion {
    public static final int DEFAULT_K = 60;

    private ReciprocalRankFusion() {
    }

    /** Fuses a vector ranking and a lexical ranking (ids best first; either may be empty). */
    public static List<FusedCandidate> fuse(List<String> vectorRanking, List<String> lexicalRanking, int k) {
        return fuseAll(List.of(vectorRanking), List.of(lexicalRanking), k);
    }

    /**
     * Fuses every side of every query variant: one vector and one lexical ranking per variant. A candidate's side
     * ranks are its best rank on that side over the variants.
     */
    public static List<FusedCandidate> fuseAll(List<List<String>> vectorRankings, List<List<String>> lexicalRankings, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("RRF k must be positive, got " + k);
        }
        Map<String, double[]> acc = new LinkedHashMap<>(); // id -> {score, vectorRank, lexicalRank}
        vectorRankings.forEach(r -> add(acc, r, k, 1));
        lexicalRankings.forEach(r -> add(acc, r, k, 2));
        List<FusedCandidate> fused = new ArrayList<>(acc.size());
        acc.forEach((id, a) -> fused.add(new FusedCandidate(id, a[0], (int) a[1], (int) a[2])));
        fused.sort(Comparator.comparingDouble(FusedCandidate::score).reversed().thenComparing(FusedCandidate::id));
        return fused;
    }

    private static void add(Map<String, double[]> acc, List<String> ranking, int k, int side) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < ranking.size(); i++) {
            if (!seen.add(ranking.get(i))) {
                continue; // an id listed twice in one ranking counts once, at its best rank
            }
            double[] a = acc.computeIfAbsent(ranking.get(i), id -> new double[3]);
            a[0] += 1.0 / (k + i + 1);
            a[side] = a[side] == 0 ? i + 1 : Math.min(a[side], i + 1);
        }
    }
}
