package org.chartstream.retrieval.dedupe;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.search.SideResults;

/**
 * The one row dedupe of the query path, before fusion: each side's list of each query variant is cut to its first
 * hit per source row, and each row is represented on both sides by one chunk, the chunk of the side that ranked the
 * row higher (its best position over the variants; the vector side on a tie), as that side first met it (the first
 * variant that returned the row, at its first position there). Every later stage therefore sees one candidate per
 * row, so one long row cannot fill the context alone.
 *
 * <p>Why before fusion: the two sides often find a row through different chunks (the lexical side a later chunk
 * holding a code, the vector side the opening chunk). Fused chunk by chunk, such a row would appear twice, each time
 * with one side's evidence only, and lose to rows whose single chunk both sides found.
 */
public final class RowDedupe {

    /**
     * Each side's lists, one per query variant in variant order, each cut to one candidate per row, best first.
     *
     * @param vector  per variant, the vector side's candidates (their vector score and position set)
     * @param lexical per variant, the lexical side's candidates (their lexical score and position set)
     */
    public record PerRow(List<List<Candidate>> vector, List<List<Candidate>> lexical) {
        public PerRow {
            vector = List.copyOf(vector);
            lexical = List.copyOf(lexical);
        }
    }

    /** {@link Candidate#vectorHit} or {@link Candidate#lexicalHit}. */
    @FunctionalInterface
    private interface Found {
        Candidate at(StoredChunk chunk, double score, int rank);
    }

    /** A side's best position for a row over the variants, and the chunk it first met the row through. */
    private record SideBest(StoredChunk chunk, int rank) {
    }

    private RowDedupe() {
    }

    public static PerRow perRow(List<SideResults> sides) {
        List<List<SearchHit>> vector = sides.stream().map(s -> firstPerRow(s.vector())).toList();
        List<List<SearchHit>> lexical = sides.stream().map(s -> firstPerRow(s.lexical())).toList();
        Map<RowRef, StoredChunk> standing = standingChunks(best(vector), best(lexical));
        return new PerRow(
                vector.stream().map(hits -> candidates(hits, standing, Candidate::vectorHit)).toList(),
                lexical.stream().map(hits -> candidates(hits, standing, Candidate::lexicalHit)).toList());
    }

    private static List<SearchHit> firstPerRow(List<SearchHit> hits) {
        Map<RowRef, SearchHit> first = new LinkedHashMap<>();
        hits.forEach(h -> first.putIfAbsent(h.chunk().row(), h));
        return List.copyOf(first.values());
    }

    private static Map<RowRef, SideBest> best(List<List<SearchHit>> lists) {
        Map<RowRef, SideBest> best = new HashMap<>();
        for (List<SearchHit> hits : lists) {
            for (int i = 0; i < hits.size(); i++) {
                best.merge(hits.get(i).chunk().row(), new SideBest(hits.get(i).chunk(), i + 1),
                        (first, later) -> new SideBest(first.chunk(), Math.min(first.rank(), later.rank())));
            }
        }
        return best;
    }

    private static Map<RowRef, StoredChunk> standingChunks(Map<RowRef, SideBest> vector, Map<RowRef, SideBest> lexical) {
        Map<RowRef, StoredChunk> standing = new HashMap<>();
        lexical.forEach((row, l) -> standing.put(row, l.chunk()));
        vector.forEach((row, v) -> {
            SideBest l = lexical.get(row);
            if (l == null || v.rank() <= l.rank()) {
                standing.put(row, v.chunk());
            }
        });
        return standing;
    }

    private static List<Candidate> candidates(List<SearchHit> hits, Map<RowRef, StoredChunk> standing, Found found) {
        return IntStream.range(0, hits.size())
                .mapToObj(i -> found.at(standing.get(hits.get(i).chunk().row()), hits.get(i).score(), i + 1))
                .toList();
    }
}
