package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexLogCatchUpTest {
    @Test
    void theReplicaHasCaughtUpOnlyWhenEveryPartitionOfTheGoalIsReached() {
        Map<Integer, Long> goal = Map.of(0, 120L, 1, 40L, 2, 0L);
        assertThat(IndexLogCatchUp.reached(Map.of(0, 120L, 1, 41L, 2, 0L), goal)).isTrue();
        assertThat(IndexLogCatchUp.reached(Map.of(0, 119L, 1, 41L, 2, 0L), goal)).as("one partition behind").isFalse();
        assertThat(IndexLogCatchUp.reached(Map.of(0, 120L, 1, 40L), goal)).as("a partition not read yet").isFalse();
        assertThat(IndexLogCatchUp.reached(Map.of(), Map.of())).as("an empty log").isTrue();
    }
}
