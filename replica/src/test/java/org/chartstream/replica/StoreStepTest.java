package org.chartstream.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreStepTest {
    private static final Duration DELAY = Duration.ofSeconds(1);

    @Test
    void aChangeIsMadeSearchableAsSoonAsTheLogIsCaughtUpWithoutACommit() {
        assertThat(StoreStep.after(true, true, true, Duration.ofMillis(3), DELAY)).isEqualTo(StoreStep.REFRESH);
    }

    @Test
    void whileTheLogStillHasEventsNothingIsRefreshedYet() {
        assertThat(StoreStep.after(true, true, false, Duration.ofMillis(3), DELAY)).isEqualTo(StoreStep.NONE);
    }

    @Test
    void eventsAreCommittedOnceTheOldestHasWaitedTheCommitDelayCaughtUpOrNot() {
        assertThat(StoreStep.after(true, true, false, DELAY, DELAY)).isEqualTo(StoreStep.COMMIT);
        assertThat(StoreStep.after(true, false, true, DELAY.plusMillis(1), DELAY)).isEqualTo(StoreStep.COMMIT);
        assertThat(StoreStep.after(true, false, true, DELAY.minusMillis(1), DELAY)).isEqualTo(StoreStep.NONE);
    }

    @Test
    void nothingAppliedNothingToDo() {
        assertThat(StoreStep.after(false, false, true, Duration.ofHours(1), DELAY)).isEqualTo(StoreStep.NONE);
    }
}
