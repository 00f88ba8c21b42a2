package org.chartstream.query.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdmissionControlTest {
    @Test
    void admitsUpToTheLimitThenRefusesUntilARelease() {
        AdmissionControl admission = new AdmissionControl(2, 2);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isFalse();
        assertThat(admission.hasCapacity()).isFalse();
        admission.release(20);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.inFlight()).isEqualTo(2);
    }

    @Test
    void recoveredRequestsAreAdmittedEvenPastTheLimitAndExtraReleasesAreAnError() {
        AdmissionControl admission = new AdmissionControl(1, 1);
        admission.acquireRecovered();
        admission.acquireRecovered();
        assertThat(admission.inFlight()).isEqualTo(2);
        assertThat(admission.tryAcquire()).isFalse();
        admission.release(20);
        admission.release(20);
        assertThatThrownBy(() -> admission.release(20)).hasMessageContaining("released more often");
        assertThatThrownBy(() -> new AdmissionControl(0, 1)).hasMessageContaining("at least 1");
    }

    @Test
    void abandonedSlotsAreFreedWithoutMovingTheLimitAndNeverBelowZero() {
        AdmissionControl admission = new AdmissionControl(2, 2);
        admission.tryAcquire();
        admission.tryAcquire();
        admission.abandon(1);
        assertThat(admission.inFlight()).isEqualTo(1);
        assertThat(admission.limit()).isEqualTo(2);
        admission.abandon(5);
        assertThat(admission.inFlight()).isZero();
    }

    @Test
    void countsTheRequestsItTurnsAway() {
        AdmissionControl admission = new AdmissionControl(1, 1);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isFalse();
        assertThat(admission.tryAcquire()).isFalse();
        admission.release(20);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.rejected()).isEqualTo(2);
    }

    @Test
    void theLimitGrowsWhileRequestsFinishQuicklyAndShrinksWhenTheyQueue() {
        AdmissionControl admission = new AdmissionControl(2, 32);
        for (int i = 0; i < 60; i++) {
            while (admission.tryAcquire()) {
                // fill every slot the limit allows, so the limit is in use
            }
            admission.release(20);
        }
        int grown = admission.limit();
        assertThat(grown).isGreaterThan(4);
        for (int i = 0; i < 30; i++) {
            admission.release(400);
            admission.tryAcquire();
        }
        assertThat(admission.limit()).isEqualTo(2);
        assertThat(admission.hasCapacity()).isFalse();
    }
}
