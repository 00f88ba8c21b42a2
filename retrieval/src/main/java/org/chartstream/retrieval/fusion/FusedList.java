package org.chartstream.retrieval.fusion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.chartstream.retrieval.Candidate;

/** What both fusions share: merging the lists' candidates by chunk id, and ordering the fused list. */
final class FusedList {
    private record Scored(Candidate candidate, double score) {
    }

    private static final Comparator<Scored> BEST_FIRST = Comparator.comparingDouble(Scored::score).reversed()
            .thenComparing((Scored s) -> s.candidate().chunk().row().id())
            .thenComparing(s -> s.candidate().chunk().chunkId());

    private FusedList() {
    }

    /**
     * Every candidate of the lists once, by chunk id, with its best (lowest) position and best own score on each side
     * over the lists.
     */
    static Map<String, Candidate> merged(List<List<Candidate>> vectorLists, List<List<Candidate>> lexicalLists) {
        Map<String, Candidate> merged = new LinkedHashMap<>();
        for (List<Candidate> list : vectorLists) {
            for (int i = 0; i < list.size(); i++) {
                Candidate c = list.get(i);
                merged.merge(c.chunk().chunkId(), Candidate.vectorHit(c.chunk(), c.vectorScore(), i + 1), FusedList::best);
            }
        }
        for (List<Candidate> list : lexicalLists) {
            for (int i = 0; i < list.size(); i++) {
                Candidate c = list.get(i);
                merged.merge(c.chunk().chunkId(), Candidate.lexicalHit(c.chunk(), c.lexicalScore(), i + 1), FusedList::best);
            }
        }
        return merged;
    }

    /** The merged candidates with their fused scores, best first, numbered from 1. */
    static List<Candidate> ranked(Map<String, Candidate> merged, ToDoubleFunction<String> fusedScoreOfChunk) {
        List<Scored> scored = new ArrayList<>(merged.size());
        merged.forEach((chunkId, c) -> scored.add(new Scored(c, fusedScoreOfChunk.applyAsDouble(chunkId))));
        scored.sort(BEST_FIRST);
        List<Candidate> ranked = new ArrayList<>(scored.size());
        for (Scored s : scored) {
            ranked.add(s.candidate().withFused(s.score(), ranked.size() + 1));
        }
        return List.copyOf(ranked);
    }

    private static Candidate best(Candidate a, Candidate b) {
        return new Candidate(a.chunk(),
                best(a.vectorScore(), a.vectorRank(), b.vectorScore(), b.vectorRank()), best(a.vectorRank(), b.vectorRank()),
                best(a.lexicalScore(), a.lexicalRank(), b.lexicalScore(), b.lexicalRank()), best(a.lexicalRank(), b.lexicalRank()),
                Double.NaN, 0, Double.NaN);
    }

    private static int best(int rankA, int rankB) {
        return rankA == 0 ? rankB : rankB == 0 ? rankA : Math.min(rankA, rankB);
    }

    private static double best(double scoreA, int rankA, double scoreB, int rankB) {
        return rankA == 0 ? scoreB : rankB == 0 ? scoreA : Math.max(scoreA, scoreB);
    }
}
