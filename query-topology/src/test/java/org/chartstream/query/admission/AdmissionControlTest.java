package org.chartstream.query.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdmissionControlTest {
    @Test
    void admitsUpToTheLimitThenRefusesUntilARelease() {
        AdmissionControl admission = new AdmissionControl(2);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isFalse();
        assertThat(admission.hasCapacity()).isFalse();
        admission.release();
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.inFlight()).isEqualTo(2);
    }

    @Test
    void recoveredRequestsAreAdmittedEvenPastTheLimitAndExtraReleasesAreAnError() {
        AdmissionControl admission = new AdmissionControl(1);
        admission.acquireRecovered();
        admission.acquireRecovered();
        assertThat(admission.inFlight()).isEqualTo(2);
        assertThat(admission.tryAcquire()).isFalse();
        admission.release();
        admission.release();
        assertThatThrownBy(admission::release).hasMessageContaining("released more often");
        assertThatThrownBy(() -> new AdmissionControl(0)).hasMessageContaining("at least 1");
    }

    @Test
    void countsTheRequestsItTurnsAway() {
        AdmissionControl admission = new AdmissionControl(1);
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.tryAcquire()).isFalse();
        assertThat(admission.tryAcquire()).isFalse();
        admission.release();
        assertThat(admission.tryAcquire()).isTrue();
        assertThat(admission.rejected()).isEqualTo(2);
    }
}
