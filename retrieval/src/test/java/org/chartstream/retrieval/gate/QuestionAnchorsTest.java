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
        assertThat(anchors("What is the Wi-Fi password for the waiting room?")).isEmpty();
        assertThat(anchors("Which patient has SNOMED CT code on their problem list?")).isEmpty();
        assertThat(anchors("Martha Collins takes what?")).isEmpty();
        assertThat(anchors("Which medications is she taking?")).isEmpty();
        assertThat(anchors("Is the HbA1c of 12345 patients known?")).containsExactly("12345");
    }

    @Test
    void aDrugOrConditionWordInAnAnchorPositionIsAnAnchor() {
        assertThat(anchors("Which patient has been prescribed zolmitriptan?")).containsExactly("zolmitriptan");
        assertThat(anchors("Who takes zolmitriptan twice a day?")).containsExactly("zolmitriptan");
        assertThat(anchors("Which patients take lisinopril?")).containsExactly("lisinopril");
        assertThat(anchors("Is anyone on Metformin?")).containsExactly("Metformin");
        assertThat(anchors("Which patients have diabetes?")).containsExactly("diabetes");
        assertThat(anchors("Who is diagnosed with gout?")).containsExactly("gout");
        assertThat(QuestionAnchors.term("Is there a patient with anemia?")).hasValueSatisfying(t -> {
            assertThat(t.anchor().text()).isEqualTo("anemia");
            assertThat(t.kind()).isEqualTo(QuestionAnchors.TermKind.CONDITION);
        });
        assertThat(QuestionAnchors.term("Who has been prescribed simvastatin?")).hasValueSatisfying(t ->
                assertThat(t.kind()).isEqualTo(QuestionAnchors.TermKind.DRUG));
    }

    @Test
    void aDrugNamedByItsSubstanceAndItsSaltIsOneAnchorOfTwoWords() {
        assertThat(anchors("Which patient has been prescribed lithium carbonate?")).containsExactly("lithium carbonate");
        assertThat(anchors("Who takes metoprolol succinate twice a day?")).containsExactly("metoprolol succinate");
        assertThat(anchors("Is anyone on Losartan Potassium?")).containsExactly("Losartan Potassium");
        assertThat(QuestionAnchors.term("Which patients take sertraline hydrochloride?")).hasValueSatisfying(t -> {
            assertThat(t.kind()).isEqualTo(QuestionAnchors.TermKind.DRUG);
            assertThat(t.anchor().tokens()).containsExactly("sertraline", "hydrochloride");
        });
        List<QuestionAnchors.Anchor> lithium = QuestionAnchors.of("Which patient has been prescribed lithium carbonate?");
        assertThat(QuestionAnchors.unmentioned(lithium, List.of("description: Lithium Carbonate 300 MG Oral Capsule"))).isEmpty();
        assertThat(QuestionAnchors.unmentioned(lithium, List.of("description: lithium citrate", "calcium carbonate")))
                .as("both words in one record").hasSize(1);
        // a lay word after the drug, a condition phrase, or two drugs make no drug name
        assertThat(anchors("Who has iron deficiency?")).isEmpty();
        assertThat(anchors("Which patients take calcium supplements?")).isEmpty();
        assertThat(anchors("Who has been prescribed sodium chloride and lithium carbonate?")).isEmpty();
    }

    @Test
    void aWordFollowedByMoreOfItsPhraseOrInNoAnchorPositionIsNot() {
        // a lay phrase is searched, not looked up word by word
        assertThat(anchors("Who has a body weight far above the healthy range?")).isEmpty();
        assertThat(anchors("Is anyone on blood thinners?")).isEmpty();
        assertThat(anchors("Which patient is being treated for a sore throat infection?")).isEmpty();
        assertThat(anchors("Who has hay fever?")).isEmpty();
        // complaints and generic words
        assertThat(anchors("Which patient came in with cough?")).isEmpty();
        assertThat(anchors("Who was seen for headache?")).isEmpty();
        assertThat(anchors("Which medications is he taking?")).isEmpty();
        assertThat(anchors("Which patient has SNOMED CT code 44054006 on their problem list?")).containsExactly("44054006");
        assertThat(anchors("What medications is she on?")).isEmpty();
        assertThat(anchors("What is metformin prescribed for?")).isEmpty();
        assertThat(anchors("Who has been given to us?")).isEmpty();
        assertThat(anchors("How many beds does the intensive care unit have?")).isEmpty();
    }

    @Test
    void accentsAndCaseAreFoldedOnBothSides() {
        List<QuestionAnchors.Anchor> accented = QuestionAnchors.of("What brought Elizabéth Róss to the clinic?");
        assertThat(QuestionAnchors.unmentioned(accented, List.of("patient: Elizabeth Ross (MRN-9)"))).isEmpty();
        List<QuestionAnchors.Anchor> plain = QuestionAnchors.of("What brought Elizabeth Ross to the clinic?");
        assertThat(QuestionAnchors.unmentioned(plain, List.of("patient: ELIZABÉTH RÓSS (MRN-9)"))).isEmpty();
        assertThat(QuestionAnchors.mentionsAll(QuestionAnchors.of("Who takes Lisinopril?"), "lisinopril 10 MG")).isTrue();
        assertThat(QuestionAnchors.mentionsAll(QuestionAnchors.of("Who takes Lisinopril?"), "losartan 10 MG")).isFalse();
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

    @Test
    void aNumberWrittenWhereAPatientsNumberGoesNamesAPersonNotACode() {
        String question = "What medications was patient 10014078 prescribed?";

        assertThat(QuestionAnchors.codes(question)).isEmpty();
        assertThat(QuestionAnchors.names(question)).containsExactly(new QuestionAnchors.Anchor("10014078", List.of("10014078")));
        assertThat(QuestionAnchors.mentionsAll(QuestionAnchors.of(question), "record: prescriptions\npatient: 10014078\ndrug: Furosemide"))
                .isTrue();
        List<QuestionAnchors.Anchor> byMrn = QuestionAnchors.of("Does patient no. MRN-000123 have code E11.9?");
        assertThat(byMrn).containsExactly(new QuestionAnchors.Anchor("E11.9", List.of("e11.9")),
                new QuestionAnchors.Anchor("MRN-000123", List.of("mrn", "000123")));
        assertThat(QuestionAnchors.mentionsAll(byMrn, "patient: Ann Lee (MRN-000123)\nicd10 code: E11.9")).isTrue();
    }

    @Test
    void aNumberTheScopeResolvedToAPatientIsAPersonWhereverItIsWritten() {
        String question = "List every drug ordered for 10031404.";

        assertThat(QuestionAnchors.codes(question)).extracting(QuestionAnchors.Anchor::text).containsExactly("10031404");
        assertThat(QuestionAnchors.codes(question, List.of("10031404"))).isEmpty();
        assertThat(QuestionAnchors.names(question, List.of("10031404")))
                .containsExactly(new QuestionAnchors.Anchor("10031404", List.of("10031404")));
        assertThat(QuestionAnchors.of("Which patients have code 42.1 or 10031404?", List.of("10031404")))
                .extracting(QuestionAnchors.Anchor::text).containsExactly("10031404");
    }
}
