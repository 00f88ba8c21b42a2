package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeWindowTest {
    private static final Instant NOW = Instant.parse("2026-11-30T19:00:00Z");

    @Test
    void shortDurationsCountBackFromNow() {
        assertThat(TimeWindow.parse("-1h", null, NOW)).isEqualTo(new TimeWindow(NOW.minus(Duration.ofHours(1)), NOW));
        assertThat(TimeWindow.parse("-15m", "-5m", NOW))
                .isEqualTo(new TimeWindow(NOW.minus(Duration.ofMinutes(15)), NOW.minus(Duration.ofMinutes(5))));
        assertThat(TimeWindow.parse("-2d", "now", NOW).from()).isEqualTo(NOW.minus(Duration.ofDays(2)));
        assertThat(TimeWindow.parse("-90s", null, NOW).from()).isEqualTo(NOW.minusSeconds(90));
        assertThat(TimeWindow.parse("1h", "+1h", NOW.plusSeconds(7200)))
                .as("an unsigned duration also counts back; + counts forward").isEqualTo(new TimeWindow(NOW.plusSeconds(3600), NOW.plusSeconds(10800)));
    }

    @Test
    void isoInstantsAndIsoDurationsAreAccepted() {
        assertThat(TimeWindow.parse("2026-11-30T18:00:00Z", "2026-11-30T18:30:00Z", NOW))
                .isEqualTo(new TimeWindow(Instant.parse("2026-11-30T18:00:00Z"), Instant.parse("2026-11-30T18:30:00Z")));
        assertThat(TimeWindow.parse("-PT1H30M", null, NOW).from()).isEqualTo(NOW.minus(Duration.ofMinutes(90)));
    }

    @Test
    void badInputNamesTheOption() {
        assertThatThrownBy(() -> TimeWindow.parse("yesterday", null, NOW)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--from 'yesterday'");
        assertThatThrownBy(() -> TimeWindow.parse("-1h", "5 o'clock", NOW)).hasMessageContaining("--to '5 o'clock'");
        assertThatThrownBy(() -> TimeWindow.parse("-1h", "-2h", NOW)).hasMessageContaining("is after --to");
        assertThatThrownBy(() -> TimeWindow.parse(null, null, NOW)).hasMessageContaining("--from is required");
    }

    @Test
    void containsBothEnds() {
        TimeWindow w = new TimeWindow(Instant.ofEpochMilli(1000), Instant.ofEpochMilli(2000));
        assertThat(w.contains(1000)).isTrue();
        assertThat(w.contains(2000)).isTrue();
        assertThat(w.contains(999)).isFalse();
        assertThat(w.contains(2001)).isFalse();
    }
}
