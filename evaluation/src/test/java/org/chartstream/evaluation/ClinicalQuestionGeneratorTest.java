package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalNoteRow;
import org.chartstream.datasets.ConditionRow;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.datasets.MedicationRow;
import org.chartstream.datasets.PatientRow;
import org.chartstream.datasets.beir.BeirDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClinicalQuestionGeneratorTest {
    private static final UUID ADA = UUID.nameUUIDFromBytes("ada".getBytes());
    private static final UUID BEN = UUID.nameUUIDFromBytes("ben".getBytes());

    static ClinicalDataset smallDataset() {
        List<PatientRow> patients = List.of(
                new PatientRow(ADA, "MRN-000001", "Ada", "Quinlan", LocalDate.of(1961, 4, 2), "female", "Salem", "Massachusetts"),
                new PatientRow(BEN, "MRN-000002", "Ben", "Okafor", LocalDate.of(1975, 9, 12), "male", "Lowell", "Massachusetts"));
        List<ConditionRow> conditions = List.of(
                new ConditionRow(1, ADA, null, LocalDate.of(2020, 1, 1), null, "38341003", "I10", "Essential hypertension (disorder)"),
                new ConditionRow(2, BEN, null, LocalDate.of(2021, 1, 1), null, "38341003", "I10", "Essential hypertension (disorder)"),
                new ConditionRow(3, BEN, null, LocalDate.of(2022, 3, 1), null, "195662009", "J02.9", "Acute viral pharyngitis (disorder)"));
        List<MedicationRow> medications = List.of(
                new MedicationRow(10, ADA, null, LocalDate.of(2020, 1, 2), null, "314076", "lisinopril 10 MG Oral Tablet", "38341003", "Essential hypertension"),
                new MedicationRow(11, BEN, null, LocalDate.of(2023, 5, 2), null, "1372693", "Sumatriptan 50 MG Oral Tablet", null, null));
        List<ClinicalNoteRow> notes = List.of(
                new ClinicalNoteRow(20, "D2N001", ADA, null, LocalDate.of(2024, 12, 1), "knee pain", "hypertension", "Knee pain after a fall."),
                new ClinicalNoteRow(21, "D2N002", BEN, null, LocalDate.of(2024, 12, 2), "sore throat", null, "Sore throat for three days."));
        return new ClinicalDataset(DatasetSpec.defaults().withPatients(2), patients, List.of(), conditions, medications, notes);
    }

    @Test
    void everyJudgedRowExistsAndEveryKindIsPresent() {
        ClinicalDataset data = smallDataset();
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(data);
        Set<String> rows = set.corpus().keySet();
        for (ClinicalQuestion q : set.questions()) {
            assertThat(rows).as(q.id()).containsAll(q.judgments().keySet());
        }
        assertThat(set.questions()).extracting(ClinicalQuestion::kind).contains("icd10 code", "snomed code", "rxnorm code",
                "drug name", "paraphrased condition", "complaint", "named patient", "follow-up", "absent patient", "absent drug",
                "absent code", "outside the records");
    }

    @Test
    void answersComeFromExactMatchesOnTheRows() {
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(smallDataset());
        ClinicalQuestion hypertensionCode = set.questions().stream()
                .filter(q -> q.kind().equals("icd10 code") && q.text().contains("I10")).findFirst().orElseThrow();
        assertThat(hypertensionCode.judgments()).containsOnlyKeys("conditions:1", "conditions:2");
        ClinicalQuestion highBloodPressure = set.questions().stream()
                .filter(q -> q.kind().equals("paraphrased condition") && q.text().contains("high blood pressure")).findFirst().orElseThrow();
        assertThat(highBloodPressure.text()).doesNotContainIgnoringCase("hypertension");
        assertThat(highBloodPressure.judgments()).containsOnlyKeys("conditions:1", "conditions:2", "clinical_notes:20");
        ClinicalQuestion followUp = set.followUps().get(0);
        assertThat(followUp.previous()).containsAnyOf("Ada Quinlan", "Ben Okafor");
        assertThat(followUp.text()).doesNotContain("Quinlan", "Okafor");
    }

    @Test
    void unanswerableQuestionsNameNothingTheDataHolds() {
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(smallDataset());
        assertThat(set.unanswerable()).isNotEmpty().allSatisfy(q -> assertThat(q.judgments()).isEmpty());
        // sumatriptan is prescribed to Ben: it must not be offered as a drug nobody takes
        assertThat(set.unanswerable()).noneSatisfy(q -> assertThat(q.text()).containsIgnoringCase("sumatriptan"));
        assertThat(set.unanswerable()).noneSatisfy(q -> assertThat(q.text()).contains("I10"));
        assertThat(set.unanswerable()).filteredOn(q -> q.kind().equals("absent drug"))
                .anySatisfy(q -> assertThat(q.text()).contains("zolmitriptan"));
    }

    @Test
    void theSameDatasetGivesTheSameQuestions() {
        assertThat(ClinicalQuestionGenerator.generate(smallDataset()).questions())
                .isEqualTo(ClinicalQuestionGenerator.generate(smallDataset()).questions());
    }

    @Test
    void writesABeirFolderThatTheBeirReaderLoads(@TempDir Path dir) throws Exception {
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(smallDataset());
        set.write(dir);
        BeirDataset beir = BeirDataset.load(dir);
        assertThat(beir.corpus()).hasSize(set.corpus().size());
        assertThat(beir.queries()).hasSize(set.answerable().size() + set.followUps().size());
        assertThat(beir.corpus()).filteredOn(d -> d.id().equals("medications:10")).singleElement()
                .satisfies(d -> assertThat(d.text()).contains("patient: Ada Quinlan (MRN-000001)", "lisinopril"));
        assertThat(Files.readAllLines(dir.resolve("queries.jsonl"))).hasSize(set.questions().size());
    }

    @Test
    void theCommittedQuestionSetMeetsTheIssuesCounts() {
        Path committed = Path.of("..", "eval", "clinical");
        BeirDataset beir = BeirDataset.load(committed);
        Set<String> documents = new HashSet<>();
        beir.corpus().forEach(d -> documents.add(d.id()));
        assertThat(beir.queries().size()).isGreaterThanOrEqualTo(150);
        beir.qrels().values().forEach(j -> assertThat(documents).containsAll(j.keySet()));
        long unanswerable;
        try {
            unanswerable = Files.readAllLines(committed.resolve("queries.jsonl")).stream()
                    .filter(l -> l.contains("\"answerable\":false")).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(unanswerable).isGreaterThanOrEqualTo(40);
    }
}
