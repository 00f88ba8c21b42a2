package org.chartstream.query.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionControlTest {
    @Test
    void admitsUpToTheLimitThenRefusesUntilARelease() {
        AdmissionControl admission = new AdmissionControl(2, 2);
        assertThat(admission.tryAcquire(1_000)).isTrue();
        assertThat(admission.tryAcquire(1_010)).isTrue();
        assertThat(admission.tryAcquire(1_020)).isFalse();
        assertThat(admission.hasCapacity()).isFalse();
        admission.release(1_000, 1_020);
        assertThat(admission.tryAcquire(1_030)).isTrue();
        assertThat(admission.inFlight()).isEqualTo(2);
    }

    @Test
    void recoveredRequestsAreAdmittedEvenPastTheLimitAndReleasingOneItDoesNotHoldIsAnError() {
        AdmissionControl admission = new AdmissionControl(1, 1);
        admission.acquirePastLimit(500);
        admission.acquirePastLimit(500);
        assertThat(admission.inFlight()).isEqualTo(2);
        assertThat(admission.tryAcquire(1_000)).isFalse();
        admission.release(500, 1_000);
        admission.release(500, 1_000);
        assertThatThrownBy(() -> admission.release(500, 1_000)).hasMessageContaining("does not hold");
        assertThat(admission.inFlight()).isZero();
        assertThatThrownBy(() -> new AdmissionControl(0, 1)).hasMessageContaining("at least 1");
    }

    @Test
    void abandonedSlotsAreFreedWithoutMovingTheLimitAndOnlyThoseItHolds() {
        AdmissionControl admission = new AdmissionControl(2, 2);
        admission.tryAcquire(1_000);
        admission.tryAcquire(2_000);
        admission.abandon(List.of(1_000L));
        assertThat(admission.inFlight()).isEqualTo(1);
        assertThat(admission.limit()).isEqualTo(2);
        admission.abandon(List.of(2_000L, 3_000L, 4_000L));
        assertThat(admission.inFlight()).isZero();
    }

    @Test
    void theOldestRequestInFlightIsTheOneAdmittedFirstUntilItIsReleased() {
        AdmissionControl admission = new AdmissionControl(8, 8);
        assertThat(admission.oldestInFlightAgeMs(5_000)).as("none in flight").isZero();
        admission.tryAcquire(2_000);
        admission.acquirePastLimit(1_000);
        admission.tryAcquire(3_000);
        assertThat(admission.oldestInFlightAgeMs(5_000)).isEqualTo(4_000);
        admission.release(1_000, 5_000);
        assertThat(admission.oldestInFlightAgeMs(5_000)).isEqualTo(3_000);
        admission.abandon(List.of(2_000L));
        assertThat(admission.oldestInFlightAgeMs(5_000)).isEqualTo(2_000);
        assertThat(admission.oldestInFlightAgeMs(2_500)).as("a clock behind an admission is age 0").isZero();
    }

    @Test
    void countsTheRequestsItTurnsAway() {
        AdmissionControl admission = new AdmissionControl(1, 1);
        assertThat(admission.tryAcquire(1_000)).isTrue();
        assertThat(admission.tryAcquire(1_001)).isFalse();
        assertThat(admission.tryAcquire(1_002)).isFalse();
        admission.release(1_000, 1_020);
        assertThat(admission.tryAcquire(1_030)).isTrue();
        assertThat(admission.rejected()).isEqualTo(2);
    }

    @Test
    void theLimitGrowsWhileRequestsFinishQuicklyAndShrinksWhenTheyQueue() {
        AdmissionControl admission = new AdmissionControl(2, 32);
        Deque<Long> held = new ArrayDeque<>();
        long clock = 0;
        for (int i = 0; i < 60; i++, clock += 20) {
            while (admission.tryAcquire(clock)) {
                held.add(clock); // fill every slot the limit allows, so the limit is in use
            }
            admission.release(held.pollLast(), clock + 20);
        }
        int grown = admission.limit();
        assertThat(grown).isGreaterThan(4);
        for (int i = 0; i < 30; i++, clock += 20) {
            admission.release(held.pollLast(), clock + 400);
            if (admission.tryAcquire(clock)) {
                held.add(clock);
            }
        }
        assertThat(admission.limit()).isEqualTo(2);
        assertThat(admission.hasCapacity()).isFalse();
    }
}
