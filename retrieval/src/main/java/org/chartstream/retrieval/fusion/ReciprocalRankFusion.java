package org.chartstream.retrieval.fusion;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.retrieval.Candidate;

/**
 * Reciprocal rank fusion: score(d) = Σ 1 / (k + rank(d)) over the rankings that contain d. Ties are broken as
 * {@link Fusion} says, so the fused order is deterministic.
 */
public final class ReciprocalRankFusion {
    public static final int DEFAULT_K = 60;

    private ReciprocalRankFusion() {
    }

    /** Fuses a vector ranking and a lexical ranking (best first; either may be empty). */
    public static List<Candidate> fuse(List<Candidate> vectorRanking, List<Candidate> lexicalRanking, int k) {
        return fuseAll(List.of(vectorRanking), List.of(lexicalRanking), k);
    }

    /**
     * Fuses every side of every query variant: one vector and one lexical ranking per variant. A candidate's side
     * ranks are its best rank on that side over the variants.
     */
    public static List<Candidate> fuseAll(List<List<Candidate>> vectorRankings, List<List<Candidate>> lexicalRankings, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("RRF k must be positive, got " + k);
        }
        Map<String, double[]> sums = new HashMap<>(); // chunk id -> {Σ 1 / (k + rank)}
        vectorRankings.forEach(r -> add(sums, r, k));
        lexicalRankings.forEach(r -> add(sums, r, k));
        return FusedList.ranked(FusedList.merged(vectorRankings, lexicalRankings), chunkId -> sums.get(chunkId)[0]);
    }

    private static void add(Map<String, double[]> sums, List<Candidate> ranking, int k) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ranking.size(); i++) {
            String id = ranking.get(i).chunk().chunkId();
            if (!seen.add(id)) {
                continue; // a chunk listed twice in one ranking counts once, at its best rank
            }
            sums.computeIfAbsent(id, x -> new double[1])[0] += 1.0 / (k + i + 1);
        }
    }
}
