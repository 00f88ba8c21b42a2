package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalNoteRow;
import org.chartstream.datasets.ConditionRow;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.datasets.MedicationRow;
import org.chartstream.datasets.PatientRow;
import org.chartstream.retrieval.generate.Passage;
import org.junit.jupiter.api.Test;

class CohortQuestionsTest {
    private static final UUID ADA = UUID.nameUUIDFromBytes("ada".getBytes());
    private static final UUID BEN = UUID.nameUUIDFromBytes("ben".getBytes());
    private static final UUID CY = UUID.nameUUIDFromBytes("cy".getBytes());

    static ClinicalDataset dataset() {
        List<PatientRow> patients = List.of(
                new PatientRow(ADA, "MRN-000001", "Ada", "Quinlan", LocalDate.of(1961, 4, 2), "female", "Salem", "Massachusetts"),
                new PatientRow(BEN, "MRN-000002", "Ben", "Okafor", LocalDate.of(1975, 9, 12), "male", "Lowell", "Massachusetts"),
                new PatientRow(CY, "MRN-000003", "Cy", "Dunn", LocalDate.of(1980, 1, 3), "male", "Lynn", "Massachusetts"));
        List<ConditionRow> conditions = List.of(
                new ConditionRow(1, ADA, null, LocalDate.of(2020, 1, 1), null, "44054006", "E11.9", "Diabetes mellitus type 2"),
                new ConditionRow(2, BEN, null, LocalDate.of(2021, 1, 1), null, "44054006", "E11.9", "Diabetes mellitus type 2"),
                new ConditionRow(3, CY, null, LocalDate.of(2022, 3, 1), null, "38341003", "I10", "Essential hypertension"));
        List<MedicationRow> medications = List.of(
                new MedicationRow(10, ADA, null, LocalDate.of(2020, 1, 2), null, "314076", "lisinopril 10 MG Oral Tablet", null, null),
                new MedicationRow(11, BEN, null, LocalDate.of(2021, 1, 2), null, "314077", "lisinopril 20 MG Oral Tablet", null, null),
                new MedicationRow(12, BEN, null, LocalDate.of(2021, 2, 2), null, "860975", "metformin 500 MG Oral Tablet", null, null));
        List<ClinicalNoteRow> notes = List.of(
                new ClinicalNoteRow(20, "D2N001", CY, null, LocalDate.of(2024, 12, 1), "dizziness", null, "Lisinopril was stopped."));
        return new ClinicalDataset(DatasetSpec.defaults().withPatients(3), patients, List.of(), conditions, medications, notes);
    }

    @Test
    void cohortQuestionsCarryEveryRowWithTheirAnchorAndNoOther() {
        List<ClinicalQuestion> cohorts = ClinicalQuestionGenerator.generate(dataset()).questions().stream()
                .filter(q -> q.kind().equals("cohort")).toList();

        assertThat(cohorts).extracting(ClinicalQuestion::text)
                .containsExactly("Which patients take lisinopril?", "Which patients have a condition with ICD-10 code E11.9?");
        assertThat(cohorts.get(0).judgments()).containsOnlyKeys("medications:10", "medications:11");
        assertThat(cohorts.get(1).judgments()).containsOnlyKeys("conditions:1", "conditions:2");
    }

    @Test
    void misspelledDrugsAreOffByOneOrTwoEditsAndMentionedNowhere() {
        List<ClinicalQuestion> misspelled = ClinicalQuestionGenerator.generate(dataset()).questions().stream()
                .filter(q -> q.kind().equals("misspelled drug")).toList();

        assertThat(misspelled).singleElement().satisfies(q -> {
            assertThat(q.text()).isEqualTo("Which patients take lisinoprl?");
            assertThat(q.judgments()).containsOnlyKeys("medications:10", "medications:11");
        });
        assertThat(ClinicalQuestionGenerator.misspell("metformin", 0)).isEqualTo("metformn");
        assertThat(ClinicalQuestionGenerator.misspell("metformin", 1)).isEqualTo("metforminn");
        assertThat(ClinicalQuestionGenerator.misspell("metformin", 2)).isEqualTo("metofrmin");
    }

    @Test
    void cohortScoresArePatientRecallAndPrecisionOfTheCitedRowsForCohortQuestionsOnly() {
        Map<String, String> patientOf = Map.of("medications:10", "ada", "medications:11", "ben", "clinical_notes:20", "cy");
        Function<RowRef, String> documentId = row -> row.table() + ":" + row.rowKey();
        CohortScores scores = new CohortScores(patientOf::get);
        RetrievalEvaluation.JudgedQuery cohort = new RetrievalEvaluation.JudgedQuery("c1", "Which patients take lisinopril?", "cohort",
                Map.of("medications:10", 1, "medications:11", 1));
        scores.add(cohort, List.of(passage(1, "medications", "10"), passage(2, "clinical_notes", "20")), documentId);
        scores.add(new RetrievalEvaluation.JudgedQuery("c2", "other", "drug name", Map.of("medications:10", 1)), List.of(), documentId);

        assertThat(scores.figures()).containsEntry("cohort_recall", 0.5).containsEntry("cohort_precision", 0.5);
        assertThat(new CohortScores(patientOf::get).figures()).isEmpty();
    }

    private static Passage passage(int index, String table, String key) {
        return new Passage(index, ChunkFixture.of("clinical", table, key).build(), 1.0, "text");
    }

    @Test
    void aCohortWithNothingCitedHasZeroRecallAndPrecision() {
        CohortScores scores = new CohortScores(Map.of("medications:10", "ada")::get);
        scores.add(new RetrievalEvaluation.JudgedQuery("c1", "q", "cohort", Map.of("medications:10", 1)), List.of(),
                row -> row.table() + ":" + row.rowKey());
        assertThat(scores.figures()).containsEntry("cohort_recall", 0.0).containsEntry("cohort_precision", 0.0);
    }
}
