package org.chartstream.retrieval.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpansionRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"hypertension", "Maria's allergies?", "latest HbA1c result", "  and   his   meds? "})
    void threeWordsOrFewerAreNotExpanded(String query) {
        assertThat(ExpansionRules.skipReason(query)).contains("≤3 words");
    }

    @ParameterizedTest
    @ValueSource(strings = {"notes that mention \"shortness of breath\" at night",
            "notes that mention “shortness of breath” at night"})
    void quotedPhrasesAreNotExpanded(String query) {
        assertThat(ExpansionRules.skipReason(query)).contains("quoted phrase");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "which patients have diagnosis I10 recorded",
            "patients with E11.9 and a recent visit",
            "fracture coded S72.001A last year",
            "medications of patient MRN-000001 this month",
            "medications of patient MRN000001 this month",
            "who takes RxNorm 197361 daily now",
            "the latest result for LOINC 4548-4 please"})
    void identifierLikeTokensAreNotExpanded(String query) {
        assertThat(ExpansionRules.skipReason(query)).contains("identifier-like token");
    }

    @ParameterizedTest
    @ValueSource(strings = {"which patients have high blood pressure and diabetes",
            "what did the doctor recommend for her back pain",
            "is there a 10 mg dose of lisinopril"})
    void ordinaryQuestionsAreExpanded(String query) {
        assertThat(ExpansionRules.skipReason(query)).isEmpty();
    }

    @Test
    void exactPartsAreTheQuotedPhrasesAndIdentifiers() {
        assertThat(ExpansionRules.exactParts("did MRN-000001 mention \"chest pain\" with code I10"))
                .containsExactlyInAnyOrder("\"chest pain\"", "I10", "MRN-000001");
    }
}
