package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModeMetricsTest {
    @Test
    void averagesOverQueriesAndTakesRecallAt50FromTheFusedOrder() {
        ModeMetrics.Accumulator acc = new ModeMetrics.Accumulator();
        // the reranked order lost the relevant document from its first 10; the fused list still holds it
        List<String> fused = List.of("x", "rel");
        acc.add(List.of("x"), fused, Map.of("rel", 1), 10);
        acc.add(List.of("a"), List.of("a"), Map.of("a", 1), 30);
        ModeMetrics m = acc.metrics();
        assertThat(m.queries()).isEqualTo(2);
        assertThat(m.recallAt10()).isCloseTo(0.5, within(1e-12));
        assertThat(m.recallAt50()).isCloseTo(1.0, within(1e-12));
        assertThat(m.mrrAt10()).isCloseTo(0.5, within(1e-12));
        assertThat(m.ndcgAt10()).isCloseTo(0.5, within(1e-12));
        assertThat(m.p50Ms()).isEqualTo(10);
        assertThat(m.p95Ms()).isEqualTo(30);
    }
}
