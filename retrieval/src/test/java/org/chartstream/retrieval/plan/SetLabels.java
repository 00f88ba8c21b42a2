package org.chartstream.retrieval.plan;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.SetResult;

/** The label rule every whole-set answer keeps, asserted the same way by each test of the plans. */
public final class SetLabels {
    private SetLabels() {
    }

    /**
     * Asserts that {@code answer} lists its whole executed set, labelled COMPLETE only when no concept of the question
     * was linked (a set of linked concepts holds every record of the concepts it names, not every record that words
     * the same thing otherwise: PARTIAL, saying so), and returns its structured result.
     */
    public static SetResult wholeSet(SetPlan plan, SetAnswer answer) {
        assertThat(answer.set().complete()).as(answer.text()).isTrue();
        if (plan.concepts().isEmpty() && plan.excluded().isEmpty()) {
            assertThat(answer.completeness().kind()).as(answer.text()).isEqualTo(Completeness.Kind.COMPLETE);
            assertThat(answer.text()).startsWith("Complete: ");
        } else {
            assertThat(answer.completeness().kind()).as(answer.text()).isEqualTo(Completeness.Kind.PARTIAL);
            assertThat(answer.completeness().reason()).contains("counts the records of the concepts named");
        }
        return answer.set();
    }
}
