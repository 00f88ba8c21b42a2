package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuestionScopeClassifierTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "List the allergies of Ana Ruiz|list verb",
            "please summarise her last three visits|list verb",
            "Summarize the medication changes|list verb",
            "give me an overview of his diabetes care|list verb",
            "show me all encounters in March|list verb",
            "what is the summary of the discharge|summary noun",
            "a timeline of Ana Ruiz's blood pressure|summary noun",
            "Does every encounter mention smoking?|quantifier",
            "has anyone been prescribed warfarin|quantifier",
            "How many visits did Ana Ruiz have in 2023?|counting",
            "how many times was she admitted|counting",
            "How many of her prescriptions were refilled?|counting",
            "Which patients have asthma?|cohort",
            "what medications is Ana Ruiz taking|which/what + plural record noun",
            "which chronic conditions does he have|which/what + plural record noun",
            "And the conditions?|record noun alone",
            "her allergies?|record noun alone",
            "and the active medications|record noun alone"})
    void broadQuestionsNameTheirRule(String question, String rule) {
        QuestionScopeClassifier.Classification c = QuestionScopeClassifier.classify(question);

        assertThat(c.scope()).isEqualTo(QuestionScope.BROAD);
        assertThat(c.rule()).isEqualTo(rule);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "What dose of lisinopril does Ana Ruiz take?",
            "When was her last HbA1c measured?",
            "Is the patient allergic to penicillin?",
            "what is the status of the referral",
            "Did the doctor listen to his lungs?",
            "which medication lowers her blood pressure",
            // a quantity one record states, not a count of records
            "How many beds does the intensive care unit have?",
            "How many cigarettes does he smoke a day?",
            "How many milligrams of lisinopril does she take?",
            "And her birth date?",
            "And the dose?"})
    void otherQuestionsArePointed(String question) {
        assertThat(QuestionScopeClassifier.classify(question))
                .isEqualTo(new QuestionScopeClassifier.Classification(QuestionScope.POINTED, "none"));
    }
}
