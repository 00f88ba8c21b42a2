package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.bench.LoadLevel.Ending;
import org.chartstream.bench.LoadLevel.Outcome;
import org.junit.jupiter.api.Test;

class LoadLevelTest {

    @Test
    void latencyPercentilesCoverAdmittedRequestsOnlyAndBusyAndLostAreCounted() {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            outcomes.add(new Outcome(Ending.ANSWERED, i, i - 1));
        }
        outcomes.add(new Outcome(Ending.BUSY, 3, 1));
        outcomes.add(new Outcome(Ending.BUSY, 9, 7));
        outcomes.add(new Outcome(Ending.LOST, 60_000, 0));

        LoadLevel level = LoadLevel.of(8, outcomes, 4.0, 5);

        assertThat(level.clients()).isEqualTo(8);
        assertThat(level.requests()).isEqualTo(103);
        assertThat(level.rps()).isEqualTo(25.0);
        assertThat(level.p50Ms()).isEqualTo(50.0);
        assertThat(level.p99Ms()).isEqualTo(99.0);
        assertThat(level.busy()).isEqualTo(2);
        assertThat(level.busyP50Ms()).isEqualTo(3.0);
        assertThat(level.busyP99Ms()).isEqualTo(9.0);
        assertThat(level.busyRequestP99Ms()).as("sent → turned away, busy replies only").isEqualTo(7.0);
        assertThat(level.busyReplyP99Ms()).as("turned away → received").isEqualTo(2.0);
        assertThat(level.lost()).isEqualTo(1);
        assertThat(level.admissionLimit()).isEqualTo(5);
    }

    @Test
    void theLastLineHasExactlyTheDocumentedShape() {
        LoadLevel one = LoadLevel.of(1, List.of(new Outcome(Ending.ANSWERED, 120.0, 110.0)), 0.5, 2);
        LoadLevel many = LoadLevel.of(64, List.of(new Outcome(Ending.BUSY, 4.0, 1.0), new Outcome(Ending.BUSY, 6.0, 5.0),
                new Outcome(Ending.LOST, 60_000, 0)), 2.0, 7);

        assertThat(LoadLevel.levelsJson(List.of(one, many))).isEqualTo("{\"levels\":["
                + "{\"clients\":1, \"rps\":2.00, \"p50_ms\":120.0, \"p99_ms\":120.0, \"busy\":0, \"busy_p50_ms\":0.0,"
                + " \"busy_p99_ms\":0.0, \"busy_hops_p99_ms\":{\"request\":0.0, \"reply\":0.0}, \"lost\":0, \"admission_limit\":2}, "
                + "{\"clients\":64, \"rps\":0.00, \"p50_ms\":0.0, \"p99_ms\":0.0, \"busy\":2, \"busy_p50_ms\":4.0,"
                + " \"busy_p99_ms\":6.0, \"busy_hops_p99_ms\":{\"request\":5.0, \"reply\":3.0}, \"lost\":1, \"admission_limit\":7}]}");
    }
}
