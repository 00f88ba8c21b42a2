package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalNoteRow;
import org.chartstream.datasets.ConditionRow;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.datasets.MedicationRow;
import org.chartstream.datasets.PatientRow;
import org.junit.jupiter.api.Test;

class ConversationQuestionsTest {
    static final UUID ROSS = UUID.nameUUIDFromBytes("ross".getBytes());
    static final UUID JACKSON = UUID.nameUUIDFromBytes("jackson".getBytes());
    static final UUID BROWN = UUID.nameUUIDFromBytes("brown".getBytes());

    static ClinicalDataset data() {
        List<PatientRow> patients = List.of(
                new PatientRow(ROSS, "MRN-000007", "Elizabeth", "Ross", LocalDate.of(1961, 3, 2), "female", "Salem", "Massachusetts"),
                new PatientRow(JACKSON, "MRN-000012", "Sophia", "Jackson", LocalDate.of(1980, 5, 9), "female", "Lowell", "Massachusetts"),
                new PatientRow(BROWN, "MRN-000031", "Sophia", "Brown", LocalDate.of(1975, 11, 23), "female", "Lynn", "Massachusetts"));
        List<ConditionRow> conditions = List.of(
                new ConditionRow(1, ROSS, null, LocalDate.of(2020, 1, 1), null, "38341003", "I10", "Essential hypertension (disorder)"),
                new ConditionRow(2, JACKSON, null, LocalDate.of(2021, 1, 1), null, "44054006", "E11.9", "Diabetes mellitus type 2 (disorder)"));
        List<MedicationRow> medications = List.of(
                new MedicationRow(10, ROSS, null, LocalDate.of(2020, 1, 2), null, "314076", "lisinopril 10 MG Oral Tablet", null, null),
                new MedicationRow(11, BROWN, null, LocalDate.of(2023, 5, 2), null, "860975", "metformin 500 MG Oral Tablet", null, null));
        List<ClinicalNoteRow> notes = List.of(
                new ClinicalNoteRow(20, "D2N001", ROSS, null, LocalDate.of(2024, 12, 1), "knee pain", null, "Knee pain after a fall."),
                new ClinicalNoteRow(21, "D2N002", JACKSON, null, LocalDate.of(2024, 12, 2), "sore throat", null, "Sore throat."));
        return new ClinicalDataset(DatasetSpec.defaults().withPatients(3), patients, List.of(), conditions, medications, notes);
    }

    @Test
    void followUpsOfSeveralKindsAreJudgedByThePatientsOwnRowsOfTheTableAskedAbout() {
        List<ConversationQuestions.Draft> followUps = ConversationQuestions.of(data()).stream()
                .filter(d -> d.kind().equals("follow-up")).toList();

        assertThat(followUps).hasSize(2);
        assertThat(followUps.get(0)).isEqualTo(new ConversationQuestions.Draft("follow-up", "What about her medications?",
                "What conditions does Elizabeth Ross have?", java.util.Set.of("medications:10")));
        // Sophia Jackson takes nothing: the next kind that has rows is asked instead
        assertThat(followUps.get(1)).isEqualTo(new ConversationQuestions.Draft("follow-up", "And the conditions?",
                "Which medications does Sophia Jackson take?", java.util.Set.of("conditions:2")));
    }

    @Test
    void aSharedNameExpectsAClarificationAndAnAccentedNameIsJudgedByThePatientsNotes() {
        ClinicalQuestionSet set = new ClinicalQuestionSet(data(), ClinicalQuestionGenerator.generate(data()).questions());

        assertThat(set.ambiguousNames()).extracting(ClinicalQuestion::text).containsExactly("What medications does Sophia take?");
        assertThat(set.ambiguousNames()).allSatisfy(q -> assertThat(q.judgments()).isEmpty());
        assertThat(set.unanswerable()).noneMatch(ClinicalQuestion::expectsClarification);
        assertThat(set.questions()).filteredOn(q -> q.kind().equals("accented name")).extracting(ClinicalQuestion::text)
                .containsExactly("What brought Élizabeth Róss to the clinic?", "What brought Sóphia Jáckson to the clinic?");
        assertThat(set.judged()).filteredOn(q -> q.kind().equals("follow-up")).allSatisfy(q -> assertThat(q.previous()).isNotNull());
    }
}
