package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RankingMetricsTest {
    private final Map<String, Integer> judged = Map.of("a", 2, "b", 1, "c", 0);

    @Test
    void ndcgUsesExponentialGainsAndLogDiscounts() {
        assertThat(RankingMetrics.ndcgAt(10, List.of("a", "b"), judged)).isCloseTo(1.0, within(1e-12));
        double dcg = 1 / (Math.log(3) / Math.log(2)) + 3 / (Math.log(4) / Math.log(2)); // b at 2, a at 3
        double idcg = 3 + 1 / (Math.log(3) / Math.log(2));
        assertThat(RankingMetrics.ndcgAt(10, List.of("x", "b", "a"), judged)).isCloseTo(dcg / idcg, within(1e-12));
        assertThat(RankingMetrics.ndcgAt(1, List.of("b", "a"), judged)).isCloseTo(1.0 / 3, within(1e-12));
    }

    @Test
    void recallAndMrrCountOnlyPositiveGrades() {
        assertThat(RankingMetrics.recallAt(2, List.of("c", "b", "a"), judged)).isEqualTo(0.5);
        assertThat(RankingMetrics.recallAt(3, List.of("c", "b", "a"), judged)).isEqualTo(1.0);
        assertThat(RankingMetrics.mrrAt(10, List.of("c", "x", "a"), judged)).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(RankingMetrics.mrrAt(2, List.of("c", "x", "a"), judged)).isZero();
    }

    @Test
    void percentilesAreNearestRank() {
        List<Double> samples = List.of(5.0, 1.0, 3.0, 2.0, 4.0);
        assertThat(RankingMetrics.percentile(samples, 0.5)).isEqualTo(3.0);
        assertThat(RankingMetrics.percentile(samples, 0.95)).isEqualTo(5.0);
        assertThat(RankingMetrics.percentile(List.of(), 0.5)).isZero();
    }
}
