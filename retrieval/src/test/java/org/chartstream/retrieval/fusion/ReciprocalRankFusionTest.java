package org.chartstream.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReciprocalRankFusionTest {

    @Test
    void scoresAreTheSumOfReciprocalRanksWithKSixty() {
        List<FusedCandidate> fused = ReciprocalRankFusion.fuse(List.of("a", "b", "c"), List.of("c", "a"), 60);

        assertThat(fused).extracting(FusedCandidate::id).containsExactly("a", "c", "b");
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 61 + 1.0 / 62, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(1.0 / 63 + 1.0 / 61, within(1e-12));
        assertThat(fused.get(2).score()).isCloseTo(1.0 / 62, within(1e-12));
        assertThat(fused.get(0).vectorRank()).isEqualTo(1);
        assertThat(fused.get(0).lexicalRank()).isEqualTo(2);
        assertThat(fused.get(2).lexicalRank()).isZero();
    }

    @Test
    void equalScoresAreOrderedById() {
        List<FusedCandidate> fused = ReciprocalRankFusion.fuse(List.of("zeta"), List.of("alpha"), 60);
        assertThat(fused).extracting(FusedCandidate::id).containsExactly("alpha", "zeta");
    }

    @Test
    void anIdRepeatedOnOneSideCountsOnceAtItsBestRank() {
        List<FusedCandidate> fused = ReciprocalRankFusion.fuse(List.of("a", "a", "b"), List.of(), 60);
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 61, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(1.0 / 63, within(1e-12));
    }

    @Test
    void emptySidesFuseToNothingAndKMustBePositive() {
        assertThat(ReciprocalRankFusion.fuse(List.of(), List.of(), 60)).isEmpty();
        assertThatThrownBy(() -> ReciprocalRankFusion.fuse(List.of("a"), List.of(), 0)).hasMessageContaining("k must be positive");
    }
}
