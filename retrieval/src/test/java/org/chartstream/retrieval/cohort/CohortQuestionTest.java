package org.chartstream.retrieval.cohort;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CohortQuestionTest {

    @Test
    void aQuestionAskingForEveryPatientWithOneCodeDrugOrConditionIsACohort() {
        assertThat(CohortQuestion.of("Which patients take lisinopril?"))
                .contains(new CohortQuestion("lisinopril", CohortQuestion.Kind.DRUG));
        assertThat(CohortQuestion.of("Which patients have a condition with ICD-10 code E11.9?"))
                .contains(new CohortQuestion("E11.9", CohortQuestion.Kind.CODE));
        assertThat(CohortQuestion.of("E11.9")).contains(new CohortQuestion("E11.9", CohortQuestion.Kind.CODE));
        assertThat(CohortQuestion.of(" E11.9? ")).contains(new CohortQuestion("E11.9", CohortQuestion.Kind.CODE));
        assertThat(CohortQuestion.of("E11.9 I10")).isEmpty();
        assertThat(CohortQuestion.of("Who has been prescribed simvastatin?"))
                .contains(new CohortQuestion("simvastatin", CohortQuestion.Kind.DRUG));
        assertThat(CohortQuestion.of("Is anyone on metformin?")).contains(new CohortQuestion("metformin", CohortQuestion.Kind.DRUG));
        assertThat(CohortQuestion.of("Is there a patient with anemia?"))
                .contains(new CohortQuestion("anemia", CohortQuestion.Kind.CONDITION));
        assertThat(CohortQuestion.of("How many patients are diagnosed with gout?"))
                .contains(new CohortQuestion("gout", CohortQuestion.Kind.CONDITION));
        assertThat(CohortQuestion.of("Find the diagnosis coded J02.0 in ICD-10."))
                .contains(new CohortQuestion("J02.0", CohortQuestion.Kind.CODE));
        assertThat(CohortQuestion.of("Which prescription has RxNorm code 108515?"))
                .contains(new CohortQuestion("108515", CohortQuestion.Kind.CODE));
    }

    @Test
    void aPatientsOwnQuestionOrOneWithoutASingleExactAnchorIsNot() {
        assertThat(CohortQuestion.of("Does Martha Collins take lisinopril?")).isEmpty();
        assertThat(CohortQuestion.of("Who is Martha Collins, and does she take lisinopril?")).isEmpty();
        assertThat(CohortQuestion.of("Which patients have high blood pressure?")).isEmpty();
        assertThat(CohortQuestion.of("Which patient has E11.9 or I10?")).isEmpty();
        assertThat(CohortQuestion.of("What is lisinopril used for?")).isEmpty();
        assertThat(CohortQuestion.of("Which medications is she taking?")).isEmpty();
        assertThat(CohortQuestion.of("Which patient came in with cough?")).isEmpty();
        assertThat(CohortQuestion.of("What are the opening hours of the gift shop?")).isEmpty();
    }

    @Test
    void askingForAllIsToldApartFromAskingAboutOne() {
        assertThat(CohortQuestion.asksForAll("Which patients have high blood pressure?")).isTrue();
        assertThat(CohortQuestion.asksForAll("List everyone with asthma")).isTrue();
        assertThat(CohortQuestion.asksForAll("What brought Martha Collins to the clinic?")).isFalse();
        assertThat(CohortQuestion.asksForAll("When was John Perry born?")).isFalse();
        assertThat(CohortQuestion.asksForAll("Who takes zolmitriptan twice a day?")).isTrue();
    }
}
