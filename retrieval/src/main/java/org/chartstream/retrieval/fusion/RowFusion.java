package org.chartstream.retrieval.fusion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.SearchHit;
import org.chartstream.retrieval.search.SideResults;

/**
 * Fuses the sides per source row, not per chunk: each side's list is cut to its best hit per row, the rows are fused,
 * and each fused row is represented by the chunk of the side that ranked it higher.
 *
 * <p>Why: the two sides often find a row through different chunks (the lexical side a later chunk holding a code,
 * the vector side the opening chunk). Fused chunk by chunk, such a row would appear twice, each time with one side's
 * evidence only, and lose to rows whose single chunk both sides found.
 */
public final class RowFusion {
    /** Fuses per-variant vector and lexical lists of (id, score), best first. */
    @FunctionalInterface
    public interface Fusion {
        List<FusedCandidate> fuse(List<List<NormalizedScoreFusion.ScoredId>> vector, List<List<NormalizedScoreFusion.ScoredId>> lexical);
    }

    private RowFusion() {
    }

    /** Reciprocal rank fusion as a {@link Fusion}. */
    public static Fusion reciprocalRank(int k) {
        return (vector, lexical) -> ReciprocalRankFusion.fuseAll(ids(vector), ids(lexical), k);
    }

    /** Normalised-score fusion as a {@link Fusion}. */
    public static Fusion normalisedScore(double vectorWeight) {
        return (vector, lexical) -> NormalizedScoreFusion.fuseAll(vector, lexical, vectorWeight);
    }

    /** The fused candidates, one per row, each carrying the id of the chunk that stands for its row. */
    public static List<FusedCandidate> fuse(List<SideResults> sides, Fusion fusion) {
        Map<String, String> vectorChunk = new HashMap<>();
        Map<String, String> lexicalChunk = new HashMap<>();
        List<List<NormalizedScoreFusion.ScoredId>> vector = new ArrayList<>();
        List<List<NormalizedScoreFusion.ScoredId>> lexical = new ArrayList<>();
        for (SideResults side : sides) {
            vector.add(bestPerRow(side.vector(), vectorChunk));
            lexical.add(bestPerRow(side.lexical(), lexicalChunk));
        }
        List<FusedCandidate> rows = fusion.fuse(vector, lexical);
        List<FusedCandidate> out = new ArrayList<>(rows.size());
        for (FusedCandidate row : rows) {
            boolean vectorStands = row.vectorRank() > 0 && (row.lexicalRank() == 0 || row.vectorRank() <= row.lexicalRank());
            String chunk = vectorStands ? vectorChunk.get(row.id()) : lexicalChunk.get(row.id());
            out.add(new FusedCandidate(chunk, row.score(), row.vectorRank(), row.lexicalRank()));
        }
        return out;
    }

    /**
     * The list cut to its first hit per row, as (row id, score); {@code chunkOfRow} learns each row's best chunk over
     * all variants of the side (the first variant that met the row, at its best position there).
     */
    private static List<NormalizedScoreFusion.ScoredId> bestPerRow(List<SearchHit> hits, Map<String, String> chunkOfRow) {
        Map<String, NormalizedScoreFusion.ScoredId> rows = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            String row = h.chunk().row().id();
            if (rows.putIfAbsent(row, new NormalizedScoreFusion.ScoredId(row, h.score())) == null) {
                chunkOfRow.putIfAbsent(row, h.chunk().chunkId());
            }
        }
        return List.copyOf(rows.values());
    }

    private static List<List<String>> ids(List<List<NormalizedScoreFusion.ScoredId>> lists) {
        return lists.stream().map(l -> l.stream().map(NormalizedScoreFusion.ScoredId::id).toList()).toList();
    }
}
