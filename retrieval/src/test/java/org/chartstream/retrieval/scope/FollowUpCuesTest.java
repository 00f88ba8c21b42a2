package org.chartstream.retrieval.scope;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FollowUpCuesTest {

    @ParameterizedTest
    @ValueSource(strings = {"What about her medications?", "Does HE take insulin?", "Which allergies does she have?",
            "What else is on this patient's list?", "And the allergies?", "How about their immunizations?",
            "Also the procedures", "Who is her doctor?", "List the patient's encounters"})
    void aPronounOfOnePersonTheirOrAnOpeningRefersBack(String question) {
        assertThat(FollowUpCues.refersBack(question)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Which patients take lisinopril?", "Does anyone have an allergy to her medication?",
            "Who takes metformin?", "Which patient has code E11.9?", "What conditions does Elizabeth Ross have?",
            "Is sinusitis treated with antibiotics?", "Thereafter, the hemoglobin was rechecked"})
    void cohortQuestionsAndQuestionsWithoutACueDoNot(String question) {
        assertThat(FollowUpCues.refersBack(question)).isFalse();
    }
}
