package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.chartstream.retrieval.TestCandidates.lexicalList;
import static org.chartstream.retrieval.TestCandidates.vectorList;

import java.util.List;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class ReciprocalRankFusionTest {

    @Test
    void scoresAreTheSumOfReciprocalRanksWithKSixty() {
        List<Candidate> fused = ReciprocalRankFusion.fuse(vectorList(List.of("a", "b", "c"), 0.9, 0.8, 0.7),
                lexicalList(List.of("c", "a"), 9, 8), 60);

        assertThat(fused).extracting(TestCandidates::rowKey).containsExactly("a", "c", "b");
        assertThat(fused).extracting(Candidate::fusedRank).containsExactly(1, 2, 3);
        assertThat(fused.get(0).fusedScore()).isCloseTo(1.0 / 61 + 1.0 / 62, within(1e-12));
        assertThat(fused.get(1).fusedScore()).isCloseTo(1.0 / 63 + 1.0 / 61, within(1e-12));
        assertThat(fused.get(2).fusedScore()).isCloseTo(1.0 / 62, within(1e-12));
        assertThat(fused.get(0).vectorRank()).isEqualTo(1);
        assertThat(fused.get(0).lexicalRank()).isEqualTo(2);
        assertThat(fused.get(2).lexicalRank()).isZero();
    }

    @Test
    void equalScoresAreOrderedByRowIdNotByChunkId() {
        // "ehr:notes:MED-10" sorts before "ehr:notes:MED-100", but its chunk id "ehr:notes:MED-10:0:1" after theirs
        List<Candidate> fused = ReciprocalRankFusion.fuse(vectorList(List.of("MED-100"), 0.9),
                lexicalList(List.of("MED-10"), 9), 60);
        assertThat(fused).extracting(TestCandidates::rowKey).containsExactly("MED-10", "MED-100");
    }

    @Test
    void aChunkRepeatedOnOneSideCountsOnceAtItsBestRank() {
        List<Candidate> fused = ReciprocalRankFusion.fuse(vectorList(List.of("a", "a", "b"), 0.9, 0.8, 0.7), List.of(), 60);
        assertThat(fused.get(0).fusedScore()).isCloseTo(1.0 / 61, within(1e-12));
        assertThat(fused.get(0).vectorRank()).isEqualTo(1);
        assertThat(fused.get(1).fusedScore()).isCloseTo(1.0 / 63, within(1e-12));
    }

    @Test
    void emptySidesFuseToNothingAndKMustBePositive() {
        assertThat(ReciprocalRankFusion.fuse(List.of(), List.of(), 60)).isEmpty();
        assertThatThrownBy(() -> ReciprocalRankFusion.fuse(vectorList(List.of("a"), 0.9), List.of(), 0))
                .hasMessageContaining("k must be positive");
    }
}
