package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EvidenceGateTest {
    private final EvidenceGate gate = new EvidenceGate("cosine", 0.30);

    @Test
    void answersAtOrAboveTheThresholdAndRefusesBelow() {
        assertThat(gate.decide(0.30, 3).answer()).isTrue();
        GateDecision weak = gate.decide(0.29, 3);
        assertThat(weak.answer()).isFalse();
        assertThat(weak.describe()).contains("refuse", "cosine", "0.290", "0.300");
    }

    @Test
    void refusesWhenNothingWasRetrieved() {
        assertThat(gate.decide(0.99, 0).answer()).isFalse();
        assertThat(gate.decide(0.99, 0).reason()).isEqualTo("nothing retrieved");
    }

    @Test
    void rejectsAThresholdOutsideTheScoreRange() {
        assertThatThrownBy(() -> new EvidenceGate("cosine", 1.5)).hasMessageContaining("1.5");
    }
}
