package org.chartstream.query.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AimdLimitTest {
    /** A limit driven down to its lower bound: a 25 ms baseline, then requests that took 20 times as long. */
    private static AimdLimit backedOff(int min, int max) {
        AimdLimit limit = new AimdLimit(min, max);
        limit.onSample(25, 1);
        for (int i = 0; i < 40; i++) {
            limit.onSample(500, 1);
        }
        assertThat(limit.limit()).isEqualTo(min);
        return limit;
    }

    @Test
    void startsAtTheUpperBoundUntilMeasurementsSayOtherwise() {
        assertThat(new AimdLimit(2, 32).limit()).isEqualTo(32);
    }

    @Test
    void growsWhileLatencyStaysNearTheBaselineAndTheLimitIsInUse() {
        AimdLimit limit = backedOff(2, 32);
        for (int i = 0; i < 40; i++) {
            limit.onSample(25, limit.limit());
        }
        assertThat(limit.limit()).isGreaterThan(6).isLessThanOrEqualTo(32);
    }

    @Test
    void doesNotGrowWhenFarFewerRequestsAreInFlightThanItAllows() {
        AimdLimit limit = backedOff(2, 32);
        for (int i = 0; i < 100; i++) {
            limit.onSample(25, 1);
        }
        assertThat(limit.limit()).isEqualTo(2);
    }

    @Test
    void backsOffMultiplicativelyWhenLatencyPassesTwiceTheBaselineButNeverBelowTheLowerBound() {
        AimdLimit limit = new AimdLimit(2, 32);
        for (int i = 0; i < 200; i++) {
            limit.onSample(25, limit.limit());
        }
        int grown = limit.limit();
        limit.onSample(60, grown); // 2.4 x the 25 ms baseline: requests queue behind each other
        assertThat(limit.limit()).isLessThan(grown).isCloseTo((int) (grown * 0.9), within(1));
        for (int i = 0; i < 100; i++) {
            limit.onSample(500, limit.limit());
        }
        assertThat(limit.limit()).isEqualTo(2);
    }

    @Test
    void neverGrowsPastTheUpperBound() {
        AimdLimit limit = backedOff(2, 5);
        for (int i = 0; i < 1_000; i++) {
            limit.onSample(25, 5);
        }
        assertThat(limit.limit()).isEqualTo(5);
    }

    @Test
    void latencyWithinTwiceTheBaselineIsNotABackOff() {
        AimdLimit limit = backedOff(2, 32);
        for (int i = 0; i < 20; i++) {
            limit.onSample(25, limit.limit());
        }
        int before = limit.limit();
        limit.onSample(49, before);
        assertThat(limit.limit()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void theBaselineForgetsAnOldMinimumSoASlowerIndexIsNotReadAsOverload() {
        AimdLimit limit = new AimdLimit(2, 32);
        limit.onSample(10, 2);
        // the service time quadruples for good (a larger index): after a while 40 ms is the new normal
        for (int i = 0; i < 300; i++) {
            limit.onSample(40, limit.limit());
        }
        assertThat(limit.limit()).as("grown again once 40 ms is the baseline").isGreaterThan(8);
    }

    @Test
    void equalBoundsAreAFixedLimitAndBadBoundsAreRefused() {
        AimdLimit fixed = new AimdLimit(1, 1);
        fixed.onSample(10, 1);
        fixed.onSample(1_000, 1);
        assertThat(fixed.limit()).isEqualTo(1);
        assertThatThrownBy(() -> new AimdLimit(0, 4)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new AimdLimit(5, 4)).hasMessageContaining("at most");
    }
}
