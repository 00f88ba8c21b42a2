package org.chartstream.replica;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RebuildProgressTest {

    @Test
    void aLineSaysHowManyRecordsUpToTheLogEndWereReplayedAndHowFast() {
        RebuildProgress p = new RebuildProgress(java.util.Map.of(), 2_000, 0);

        assertThat(p.line(500, 5_000_000_000L))
                .isEqualTo("rebuilding the index from the index log: 500 of 2,000 log records (25 %), 5 s, 100 records/s");
        assertThat(p.done(1_999)).isFalse();
        assertThat(p.done(2_000)).isTrue();
    }

    @Test
    void anEmptyLogIsDoneAtOnce() {
        RebuildProgress p = new RebuildProgress(java.util.Map.of(), 0, 0);

        assertThat(p.done(0)).isTrue();
        assertThat(p.line(0, 1_000_000_000L)).contains("0 of 0 log records (100 %)");
    }
}
