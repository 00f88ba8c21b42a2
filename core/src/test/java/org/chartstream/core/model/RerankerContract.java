package org.chartstream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link Reranker} guarantees. A subclass supplies one open reranker, shared by its tests. */
public abstract class RerankerContract {
    static final String QUERY = "which medication controls the patient's blood pressure?";
    static final List<String> PASSAGES = List.of(
            "record: medications\npatient: Ana Ruiz (MRN-000001)\nmedication: lisinopril 10 mg daily for hypertension",
            "record: encounters\nreason: annual wellness visit, no complaints",
            "record: observations\nblood pressure: 142/91 mmHg, repeated 138/88 mmHg",
            "the cafeteria menu lists pizza on fridays",
            "record: conditions\ncondition: essential hypertension (I10), onset 2019, managed with an ACE inhibitor and diet");

    protected abstract Reranker reranker();

    @Test
    void givesOneFiniteScorePerPassageInInputOrder() {
        double[] scores = reranker().score(QUERY, PASSAGES);

        assertThat(scores).hasSize(PASSAGES.size());
        for (double s : scores) {
            assertThat(Double.isFinite(s)).isTrue();
        }
        for (int i = 0; i < PASSAGES.size(); i++) {
            assertThat(reranker().score(QUERY, List.of(PASSAGES.get(i)))[0]).as("passage %d alone", i)
                    .isCloseTo(scores[i], within(1e-5));
        }
    }

    @Test
    void aPassagesScoreDoesNotDependOnTheOtherPassages() {
        List<String> reversed = new ArrayList<>(PASSAGES);
        Collections.reverse(reversed);
        List<String> doubled = new ArrayList<>(PASSAGES);
        doubled.addAll(PASSAGES);

        double[] scores = reranker().score(QUERY, PASSAGES);
        double[] reversedScores = reranker().score(QUERY, reversed);
        double[] doubledScores = reranker().score(QUERY, doubled);

        for (int i = 0; i < PASSAGES.size(); i++) {
            assertThat(reversedScores[PASSAGES.size() - 1 - i]).isCloseTo(scores[i], within(1e-5));
            assertThat(doubledScores[i]).isCloseTo(scores[i], within(1e-5));
            assertThat(doubledScores[PASSAGES.size() + i]).isCloseTo(scores[i], within(1e-5));
        }
    }

    @Test
    void theRankingFollowsTheScores() {
        double[] scores = reranker().score(QUERY, PASSAGES);
        int[] ranking = Reranker.ranking(scores);

        assertThat(ranking).hasSize(PASSAGES.size());
        assertThat(ranking).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        for (int k = 1; k < ranking.length; k++) {
            assertThat(scores[ranking[k - 1]]).isGreaterThanOrEqualTo(scores[ranking[k]]);
        }
    }

    @Test
    void emptyInputGivesNoScores() {
        assertThat(reranker().score(QUERY, List.of())).isEmpty();
    }

    @Test
    void rejectsMissingArguments() {
        assertThatThrownBy(() -> reranker().score(null, PASSAGES)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> reranker().score(QUERY, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void namesItsScorerScale() {
        assertThat(reranker().name()).isNotBlank();
        assertThat(reranker().scorer()).isIn(Reranker.CROSS_ENCODER_SIGMOID, Reranker.BI_ENCODER_COSINE);
    }
}
