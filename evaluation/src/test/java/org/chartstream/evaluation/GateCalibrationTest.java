package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class GateCalibrationTest {
    private static GateCalibration.Observation answerable(double best) {
        return new GateCalibration.Observation(true, true, 3, best);
    }

    private static GateCalibration.Observation unanswerable(double best) {
        return new GateCalibration.Observation(false, true, 3, best);
    }

    @Test
    void pointedQuestionsBelowTheThresholdAndEmptyRetrievalsAreRefusedBroadOnesAreNot() {
        assertThat(GateCalibration.refused(answerable(0.39), 0.40)).isTrue();
        assertThat(GateCalibration.refused(answerable(0.40), 0.40)).isFalse();
        assertThat(GateCalibration.refused(new GateCalibration.Observation(true, false, 3, 0.05), 0.40)).isFalse();
        assertThat(GateCalibration.refused(new GateCalibration.Observation(true, false, 0, Double.NEGATIVE_INFINITY), 0.0)).isTrue();
    }

    @Test
    void aPointCountsRefusalsOfEachClass() {
        List<GateCalibration.Observation> obs = List.of(answerable(0.70), answerable(0.50), answerable(0.30),
                unanswerable(0.20), unanswerable(0.45));
        GateCalibration.Point p = GateCalibration.point(obs, 0.40);
        assertThat(p.falseRefusals()).isEqualTo(1);
        assertThat(p.falseAnswers()).isEqualTo(1);
        assertThat(p.refusalPrecision()).isCloseTo(0.5, within(1e-12));
        assertThat(p.refusalRecall()).isCloseTo(0.5, within(1e-12));
        assertThat(p.refusalF1()).isCloseTo(0.5, within(1e-12));
        assertThat(p.falseRefusalRate()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(p.falseAnswerRate()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void theRecommendationMaximisesRefusalF1AndPrefersTheLowestThresholdOnTies() {
        List<GateCalibration.Observation> obs = List.of(answerable(0.62), answerable(0.55), answerable(0.48),
                unanswerable(0.31), unanswerable(0.36));
        GateCalibration.Result r = GateCalibration.sweep(obs, 0.0, 0.8, 0.01);
        // every threshold in (0.36, 0.48] separates the classes perfectly; the lowest is 0.37
        assertThat(r.recommended().threshold()).isCloseTo(0.37, within(1e-9));
        assertThat(r.recommended().refusalF1()).isCloseTo(1.0, within(1e-12));
        assertThat(r.sweep()).hasSize(81);
        assertThat(r.sweep().get(0).threshold()).isZero();
        assertThat(r.sweep().get(80).threshold()).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void aSweepNeedsAPositiveStep() {
        assertThatThrownBy(() -> GateCalibration.sweep(List.of(), 0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
