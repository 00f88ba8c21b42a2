package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QuestionAnchorsTest {

    private static List<String> anchors(String question) {
        return QuestionAnchors.of(question).stream().map(QuestionAnchors.Anchor::text).toList();
    }

    @Test
    void codesAndFullNamesAreAnchors() {
        assertThat(anchors("Which patient has a condition with ICD-10 code E11.319?")).containsExactly("E11.319");
        assertThat(anchors("Who has a diagnosis with SNOMED code 109989006?")).containsExactly("109989006");
        assertThat(anchors("Which prescription has RxNorm code 108515?")).containsExactly("108515");
        assertThat(anchors("What medications is Thaddeus Fairweather taking?")).containsExactly("Thaddeus Fairweather");
        assertThat(anchors("When was Clementine Pemberton-Lowe last seen in the clinic?")).containsExactly("Clementine Pemberton-Lowe");
        assertThat(anchors("Does Martha Collins have G35 or G35?")).containsExactly("G35", "Martha Collins");
    }

    @Test
    void theFirstWordLowerCaseTermsAndAcronymsAreNot() {
        assertThat(anchors("Which patient has been prescribed zolmitriptan?")).isEmpty();
        assertThat(anchors("What is the Wi-Fi password for the waiting room?")).isEmpty();
        assertThat(anchors("Which patient has SNOMED CT code on their problem list?")).isEmpty();
        assertThat(anchors("Martha Collins takes what?")).isEmpty();
        assertThat(anchors("Which medications is she taking?")).isEmpty();
        assertThat(anchors("Is the HbA1c of 12345 patients known?")).containsExactly("12345");
    }

    @Test
    void aRecordMentionsACodeAsAWholeTokenAndANameByAllItsWords() {
        List<QuestionAnchors.Anchor> anchors = QuestionAnchors.of("Does Ana Ruiz-Lopez have E11.3 and 44054006?");
        String record = "record: conditions\npatient: Ana Ruiz-Lopez (MRN-7)\nicd10 code: E11.3. snomed code: 44054006";

        assertThat(QuestionAnchors.unmentioned(anchors, List.of(record))).isEmpty();
        assertThat(QuestionAnchors.unmentioned(anchors, List.of("patient: Ruiz-Lopez, Ana\nE11.3 44054006"))).isEmpty();
        assertThat(QuestionAnchors.unmentioned(anchors, List.of("patient: Ana Ruiz (MRN-7) E11.319 440540061")))
                .extracting(QuestionAnchors.Anchor::text).containsExactly("E11.3", "44054006", "Ana Ruiz-Lopez");
        // each anchor may be mentioned by a different record, but a name's words must be in one record
        assertThat(QuestionAnchors.unmentioned(anchors, List.of("E11.3 and 44054006", "Ana Lopez", "Ruiz")))
                .extracting(QuestionAnchors.Anchor::text).containsExactly("Ana Ruiz-Lopez");
        assertThat(QuestionAnchors.unmentioned(List.of(), List.of())).isEmpty();
    }
}
