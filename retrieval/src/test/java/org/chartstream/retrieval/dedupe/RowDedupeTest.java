package org.chartstream.retrieval.dedupe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.fusion.Fusion;
import org.chartstream.retrieval.fusion.ReciprocalRankFusion;
import org.chartstream.retrieval.search.SideResults;
import org.junit.jupiter.api.Test;

class RowDedupeTest {
    private static final RowRef LONG_NOTE = new RowRef("ehr", "clinical_notes", "7");
    private static final RowRef SHORT_NOTE = new RowRef("ehr", "clinical_notes", "8");
    private static final RowRef CONDITION = new RowRef("ehr", "conditions", "12");

    private static StoredChunk chunk(RowRef row, int chunk) {
        return ChunkFixture.of(row).index(chunk, 3).build();
    }

    private static SearchHit hit(RowRef row, int chunk, double score, int rank) {
        return new SearchHit(chunk(row, chunk), score, rank);
    }

    private static List<Candidate> fused(List<SideResults> sides, Fusion fusion) {
        RowDedupe.PerRow perRow = RowDedupe.perRow(sides);
        return fusion.fuse(perRow.vector(), perRow.lexical());
    }

    private static List<String> chunkIds(List<Candidate> candidates) {
        return candidates.stream().map(c -> c.chunk().chunkId()).toList();
    }

    @Test
    void eachListKeepsItsFirstHitPerRowAtItsNewPosition() {
        SideResults sides = new SideResults(
                List.of(hit(LONG_NOTE, 1, 0.9, 1), hit(SHORT_NOTE, 0, 0.8, 2), hit(LONG_NOTE, 0, 0.7, 3), hit(CONDITION, 0, 0.6, 4)),
                List.of());

        List<Candidate> vector = RowDedupe.perRow(List.of(sides)).vector().get(0);

        assertThat(chunkIds(vector)).containsExactly(chunk(LONG_NOTE, 1).chunkId(), chunk(SHORT_NOTE, 0).chunkId(),
                chunk(CONDITION, 0).chunkId());
        assertThat(vector).extracting(Candidate::vectorScore).containsExactly(0.9, 0.8, 0.6);
        assertThat(vector).extracting(Candidate::vectorRank).containsExactly(1, 2, 3);
        assertThat(RowDedupe.perRow(List.of(sides)).lexical().get(0)).isEmpty();
    }

    @Test
    void aRowFoundThroughDifferentChunksOnTheTwoSidesGetsBothSidesEvidence() {
        // the long note: its opening chunk first on the vector side, a later chunk first on the lexical side
        SideResults sides = new SideResults(
                List.of(hit(LONG_NOTE, 0, 0.80, 1), hit(SHORT_NOTE, 0, 0.78, 2), hit(CONDITION, 0, 0.40, 3)),
                List.of(hit(LONG_NOTE, 2, 9.0, 1), hit(SHORT_NOTE, 0, 8.5, 2)));

        List<Candidate> perChunk = ReciprocalRankFusion.fuse(
                sides.vector().stream().map(h -> Candidate.vectorHit(h.chunk(), h.score(), h.rank())).toList(),
                sides.lexical().stream().map(h -> Candidate.lexicalHit(h.chunk(), h.score(), h.rank())).toList(), 60);
        List<Candidate> perRow = fused(List.of(sides), Fusion.reciprocalRank(60));

        assertThat(perChunk.get(0).chunk().chunkId()).as("chunk by chunk, the row both sides found through one chunk wins")
                .isEqualTo(chunk(SHORT_NOTE, 0).chunkId());
        assertThat(chunkIds(perRow)).containsExactly(
                chunk(LONG_NOTE, 0).chunkId(), chunk(SHORT_NOTE, 0).chunkId(), chunk(CONDITION, 0).chunkId());
        assertThat(perRow.get(0).fusedScore()).isCloseTo(2.0 / 61, within(1e-12));
        assertThat(perRow.get(0).vectorRank()).isEqualTo(1);
        assertThat(perRow.get(0).lexicalRank()).isEqualTo(1);
    }

    @Test
    void theChunkOfTheSideThatRankedTheRowHigherStandsForItOnBothSides() {
        SideResults sides = new SideResults(
                List.of(hit(SHORT_NOTE, 0, 0.9, 1), hit(LONG_NOTE, 1, 0.5, 2)),
                List.of(hit(LONG_NOTE, 2, 7.0, 1)));

        RowDedupe.PerRow perRow = RowDedupe.perRow(List.of(sides));
        List<Candidate> fused = Fusion.normalisedScore(0.4).fuse(perRow.vector(), perRow.lexical());

        assertThat(chunkIds(perRow.vector().get(0))).containsExactly(chunk(SHORT_NOTE, 0).chunkId(), chunk(LONG_NOTE, 2).chunkId());
        assertThat(chunkIds(fused)).containsExactly(chunk(LONG_NOTE, 2).chunkId(), chunk(SHORT_NOTE, 0).chunkId());
        assertThat(fused.get(0).fusedScore()).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void variantsKeepEachRowsChunkFromTheFirstVariantThatMetIt() {
        SideResults first = new SideResults(List.of(hit(LONG_NOTE, 1, 0.7, 1)), List.of());
        SideResults second = new SideResults(List.of(hit(LONG_NOTE, 0, 0.9, 1), hit(SHORT_NOTE, 0, 0.2, 2)), List.of());

        List<Candidate> fused = fused(List.of(first, second), Fusion.reciprocalRank(60));

        assertThat(chunkIds(fused)).containsExactly(chunk(LONG_NOTE, 1).chunkId(), chunk(SHORT_NOTE, 0).chunkId());
    }

    @Test
    void theLexicalChunkStandsForARowTheLexicalSideRankedHigherInAnyVariant() {
        SideResults first = new SideResults(List.of(hit(SHORT_NOTE, 0, 0.9, 1), hit(LONG_NOTE, 0, 0.8, 2)), List.of());
        SideResults second = new SideResults(List.of(), List.of(hit(LONG_NOTE, 2, 7.0, 1)));

        List<Candidate> fused = fused(List.of(first, second), Fusion.reciprocalRank(60));

        assertThat(chunkIds(fused)).contains(chunk(LONG_NOTE, 2).chunkId()).doesNotContain(chunk(LONG_NOTE, 0).chunkId());
    }
}
