package org.chartstream.retrieval.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdaptiveRerankPrefixTest {
    private final AdaptiveRerankPrefix prefix = AdaptiveRerankPrefix.DEFAULT;

    /** {@code strong} candidates found by both sides, then candidates found by one side only (RRF, k = 60). */
    private static List<Double> bothSidesThenOneSide(int strong, int total) {
        List<Double> scores = new ArrayList<>();
        for (int r = 1; r <= total; r++) {
            scores.add(r <= strong ? 2.0 / (60 + r) : 1.0 / (60 + r));
        }
        return scores;
    }

    @Test
    void cutsAtTheFirstElbowPastTheMinimum() {
        AdaptiveRerankPrefix.Cut cut = prefix.cut(bothSidesThenOneSide(12, 50), 5);

        assertThat(cut.length()).isEqualTo(12);
        assertThat(cut.reason()).startsWith("elbow after 12: 0.0137 < 0.65 × 0.0278");
    }

    @Test
    void anElbowBeforeTheMinimumIsIgnored() {
        assertThat(prefix.cut(bothSidesThenOneSide(3, 50), 5).length()).isEqualTo(30);
        assertThat(prefix.cut(bothSidesThenOneSide(3, 50), 5).reason()).isEqualTo("no elbow: capped at 30");
    }

    @Test
    void theMinimumIsTopKWhenThatIsLarger() {
        assertThat(prefix.cut(bothSidesThenOneSide(10, 50), 20).length()).isEqualTo(30);
        assertThat(prefix.cut(bothSidesThenOneSide(24, 50), 20).length()).isEqualTo(24);
    }

    @Test
    void aDropOfExactlyTheRatioIsNotAnElbow() {
        List<Double> scores = new ArrayList<>(List.of(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.65, 0.4));

        assertThat(prefix.cut(scores, 1).length()).isEqualTo(9);
    }

    @Test
    void fewCandidatesAreAllReranked() {
        assertThat(prefix.cut(bothSidesThenOneSide(1, 6), 3)).isEqualTo(new AdaptiveRerankPrefix.Cut(6, "all 6 candidates (minimum prefix 8)"));
        assertThat(prefix.cut(List.of(), 3).length()).isZero();
        assertThat(prefix.cut(bothSidesThenOneSide(20, 20), 3).reason()).isEqualTo("no elbow: all 20 candidates");
    }

    @Test
    void neverCutsAboveTheCapUnlessTopKAsksForMore() {
        assertThat(prefix.cut(bothSidesThenOneSide(40, 40), 3).length()).isEqualTo(30);
        assertThat(prefix.cut(bothSidesThenOneSide(40, 40), 35).length()).isEqualTo(35);
    }

    @Test
    void rejectsSettingsThatCannotCut() {
        assertThatThrownBy(() -> new AdaptiveRerankPrefix(8, 30, 1.0)).hasMessageContaining("dropRatio");
        assertThatThrownBy(() -> new AdaptiveRerankPrefix(10, 5, 0.5)).hasMessageContaining("minCandidates");
    }
}
