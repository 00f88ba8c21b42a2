package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FlushRuleTest {
    private final FlushRule rule = new FlushRule(64, Duration.ofMillis(10), Duration.ofMillis(500));

    @Test
    void nothingPendingIsNeverDue() {
        assertThat(rule.due(0, 0, 10_000, 10_000)).isFalse();
    }

    @Test
    void aLoneChangeGoesOutOnceTheInputIsQuiet() {
        assertThat(rule.due(1, 1, 9, 9)).isFalse();
        assertThat(rule.due(1, 1, 10, 10)).isTrue();
    }

    @Test
    void aBatchThatIsStillFillingWaits() {
        // appended to a moment ago: more input is arriving
        assertThat(rule.due(30, 40, 300, 2)).isFalse();
    }

    @Test
    void aFullBatchGoesOutAtOnce() {
        assertThat(rule.full(63)).isFalse();
        assertThat(rule.full(64)).isTrue();
        assertThat(rule.due(20, 64, 0, 0)).isTrue();
    }

    @Test
    void inputThatNeverPausesWaitsAtMostTheLinger() {
        assertThat(rule.due(30, 40, 499, 1)).isFalse();
        assertThat(rule.due(30, 40, 500, 1)).isTrue();
    }

    @Test
    void eventsWithoutChunksGoOutToo() {
        // a delete or a publish marker needs no vector but must still reach the index log
        assertThat(rule.due(1, 0, 10, 10)).isTrue();
    }

    @Test
    void refusesAQuietTimeOutsideZeroToLinger() {
        assertThatThrownBy(() -> new FlushRule(64, Duration.ZERO, Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FlushRule(64, Duration.ofMillis(600), Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FlushRule(0, Duration.ofMillis(10), Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class);
    }
}
