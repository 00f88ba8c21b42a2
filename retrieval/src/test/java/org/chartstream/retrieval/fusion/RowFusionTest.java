package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.search.SideResults;
import org.junit.jupiter.api.Test;

class RowFusionTest {
    private static final RowRef LONG_NOTE = new RowRef("ehr", "clinical_notes", "7");
    private static final RowRef SHORT_NOTE = new RowRef("ehr", "clinical_notes", "8");
    private static final RowRef CONDITION = new RowRef("ehr", "conditions", "12");

    private static SearchHit hit(RowRef row, int chunk, double score, int rank) {
        StoredChunk c = new StoredChunk(StoredChunk.chunkId(row, chunk, 1), row, chunk, 3, 1, "text", null, null, null, 0L, "m");
        return new SearchHit(c, score, rank);
    }

    @Test
    void aRowFoundThroughDifferentChunksOnTheTwoSidesGetsBothSidesEvidence() {
        // the long note: its opening chunk first on the vector side, a later chunk first on the lexical side
        SideResults sides = new SideResults(
                List.of(hit(LONG_NOTE, 0, 0.80, 1), hit(SHORT_NOTE, 0, 0.78, 2), hit(CONDITION, 0, 0.40, 3)),
                List.of(hit(LONG_NOTE, 2, 9.0, 1), hit(SHORT_NOTE, 0, 8.5, 2)));

        List<FusedCandidate> perChunk = ReciprocalRankFusion.fuse(
                sides.vector().stream().map(h -> h.chunk().chunkId()).toList(),
                sides.lexical().stream().map(h -> h.chunk().chunkId()).toList(), 60);
        List<FusedCandidate> perRow = RowFusion.fuse(List.of(sides), RowFusion.reciprocalRank(60));

        assertThat(perChunk.get(0).id()).as("chunk by chunk, the row both sides found through one chunk wins")
                .isEqualTo(StoredChunk.chunkId(SHORT_NOTE, 0, 1));
        assertThat(perRow).extracting(FusedCandidate::id).containsExactly(
                StoredChunk.chunkId(LONG_NOTE, 0, 1), StoredChunk.chunkId(SHORT_NOTE, 0, 1), StoredChunk.chunkId(CONDITION, 0, 1));
        assertThat(perRow.get(0).score()).isCloseTo(2.0 / 61, within(1e-12));
        assertThat(perRow.get(0).vectorRank()).isEqualTo(1);
        assertThat(perRow.get(0).lexicalRank()).isEqualTo(1);
    }

    @Test
    void theChunkOfTheSideThatRankedTheRowHigherStandsForIt() {
        SideResults sides = new SideResults(
                List.of(hit(SHORT_NOTE, 0, 0.9, 1), hit(LONG_NOTE, 1, 0.5, 2)),
                List.of(hit(LONG_NOTE, 2, 7.0, 1)));

        List<FusedCandidate> fused = RowFusion.fuse(List.of(sides), RowFusion.normalisedScore(0.4));

        assertThat(fused).extracting(FusedCandidate::id)
                .containsExactly(StoredChunk.chunkId(LONG_NOTE, 2, 1), StoredChunk.chunkId(SHORT_NOTE, 0, 1));
        assertThat(fused.get(0).score()).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void variantsKeepEachRowsBestChunkFromTheFirstVariantThatMetIt() {
        SideResults first = new SideResults(List.of(hit(LONG_NOTE, 1, 0.7, 1)), List.of());
        SideResults second = new SideResults(List.of(hit(LONG_NOTE, 0, 0.9, 1), hit(SHORT_NOTE, 0, 0.2, 2)), List.of());

        List<FusedCandidate> fused = RowFusion.fuse(List.of(first, second), RowFusion.reciprocalRank(60));

        assertThat(fused).extracting(FusedCandidate::id)
                .containsExactly(StoredChunk.chunkId(LONG_NOTE, 1, 1), StoredChunk.chunkId(SHORT_NOTE, 0, 1));
    }
}
