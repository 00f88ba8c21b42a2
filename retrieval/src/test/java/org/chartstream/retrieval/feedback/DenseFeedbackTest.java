package org.chartstream.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class DenseFeedbackTest {
    private static Candidate row(String key, float[] vector, int rank) {
        return TestCandidates.fused(ChunkFixture.of("ehr", "notes", key).vector(vector).build(), 1.0 / rank, rank);
    }

    @Test
    void theQueryMovesHalfwayTowardsTheMeanOfTheFirstRowsAndStaysUnitLength() {
        float[] q = {1, 0, 0};
        List<Candidate> fused = List.of(row("a", new float[] {0, 1, 0}, 1), row("b", new float[] {0, 0, 1}, 2),
                row("c", new float[] {0, 1, 0}, 3), row("d", new float[] {0, 0, 1}, 4));

        float[] moved = new DenseFeedback(3, 0.5).query(q, fused).orElseThrow();

        // 0.5·(1,0,0) + 0.5·mean((0,1,0),(0,0,1),(0,1,0)) = (1/2, 1/3, 1/6): the fourth row is not used
        double n = Math.sqrt(0.25 + 1.0 / 9 + 1.0 / 36);
        assertThat(moved[0]).isCloseTo((float) (0.5 / n), within(1e-6f));
        assertThat(moved[1]).isCloseTo((float) (1.0 / 3 / n), within(1e-6f));
        assertThat(moved[2]).isCloseTo((float) (1.0 / 6 / n), within(1e-6f));
    }

    @Test
    void rowsWithoutAVectorOfTheQueryDimensionAreSkipped() {
        float[] q = {1, 0};
        List<Candidate> fused = List.of(row("a", null, 1), row("b", new float[] {0, 1, 0}, 2), row("c", new float[] {0, 1}, 3));

        float[] moved = DenseFeedback.ROCCHIO.query(q, fused).orElseThrow();

        assertThat(moved[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(moved[1]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
    }

    @Test
    void noUsableRowOrFeedbackOffGivesNoSecondQuery() {
        float[] q = {1, 0};
        assertThat(DenseFeedback.ROCCHIO.query(q, List.of(row("a", null, 1)))).isEmpty();
        assertThat(DenseFeedback.ROCCHIO.query(q, List.of())).isEmpty();
        assertThat(DenseFeedback.OFF.query(q, List.of(row("a", new float[] {0, 1}, 1)))).isEmpty();
        assertThat(DenseFeedback.OFF.on()).isFalse();
        assertThat(DenseFeedback.ROCCHIO.on()).isTrue();
    }

    @Test
    void feedbackOppositeToTheQueryLeavesTheQuery() {
        float[] q = {1, 0};
        assertThat(DenseFeedback.moved(q, List.of(new float[] {-1, 0}), 0.5)).containsExactly(1, 0);
    }

    @Test
    void rowsAndWeightAreChecked() {
        assertThatThrownBy(() -> new DenseFeedback(-1, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DenseFeedback(3, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
