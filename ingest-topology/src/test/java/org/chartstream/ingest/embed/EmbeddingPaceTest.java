package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EmbeddingPaceTest {
    private final EmbeddingPace pace = new EmbeddingPace(Duration.ofSeconds(4));

    @Test
    void beforeAnyFlushTheConfiguredBatchStands() {
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aFastModelKeepsTheConfiguredBatch() {
        pace.embedded(64, 1_300); // 50 chunks/s: 64 chunks take 1.3 s of the 4 s budget
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aSlowModelGetsBatchesThatFitTheBudget() {
        pace.embedded(64, 12_800); // 5 chunks/s (a loaded machine, a 512-token model): 64 chunks would take 12.8 s
        assertThat(pace.batchLimit(64, 1)).isEqualTo(20);
    }

    @Test
    void thePaceFollowsRecentFlushesAndNeverGoesBelowOneChunk() {
        pace.embedded(10, 100_000);
        assertThat(pace.batchLimit(64, 1)).isEqualTo(1);
        for (int i = 0; i < 20; i++) {
            pace.embedded(20, 400);
        }
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void flushesWithoutChunksDoNotCount() {
        pace.embedded(0, 50);
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aBudgetMustBePositive() {
        assertThatThrownBy(() -> new EmbeddingPace(Duration.ZERO)).hasMessageContaining("budget must be positive");
    }

    @Test
    void batchesThatShareOneTransactionShareTheBudget() {
        pace.embedded(10, 1_000); // 100 ms per chunk: 40 chunks fill the 4 s budget alone
        assertThat(pace.batchLimit(64, 1)).isEqualTo(40);
        assertThat(pace.batchLimit(64, 2)).isEqualTo(20);
        assertThat(pace.batchLimit(64, 0)).as("no other task open").isEqualTo(40);
    }
}
