package org.chartstream.evaluation.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryBenchTest {
    private static QueryBench.Result run(int clients, double p50) {
        return new QueryBench.Result(1_000, clients, 30, p50, 2 * p50, 10.0, Map.of("total", 20.0), new QueryBench.Index(1.5, 0.5, 3));
    }

    @Test
    void oneClientCountIsItsOwnObjectAndSeveralAreOneObjectHoldingEveryRun() {
        QueryBench.Result one = run(1, 40);
        QueryBench.Result eight = run(8, 90);

        assertThat(QueryBench.lastLine(List.of(one))).isEqualTo(one.toJson());
        assertThat(QueryBench.lastLine(List.of(one, eight))).isEqualTo("{\"runs\":[" + one.toJson() + ", " + eight.toJson() + "]}");
        assertThat(one.toJson()).isEqualTo("{\"chunks\":1000, \"clients\":1, \"p50_ms\":40.0, \"p95_ms\":80.0,"
                + " \"stages_ms\":{\"total\":20.0}, \"requests\":30, \"requests_per_s\":10.00, \"index_s\":1.5,"
                + " \"merge_wait_s\":0.5, \"segments\":3}");
    }
}
