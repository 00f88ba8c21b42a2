package org.chartstream.app.cli;

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
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.PatientCandidate;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class DemoConversationsTest {
    static final UUID ADA = UUID.nameUUIDFromBytes("ada".getBytes());
    static final UUID BEN = UUID.nameUUIDFromBytes("ben".getBytes());
    static final UUID ANA = UUID.nameUUIDFromBytes("ana".getBytes());

    static ClinicalDataset data() {
        List<PatientRow> patients = List.of(
                new PatientRow(ADA, "MRN-1", "Ada", "Quinlan", LocalDate.of(1961, 4, 2), "female", "Salem", "Massachusetts"),
                new PatientRow(BEN, "MRN-2", "Ben", "Okafor", LocalDate.of(1975, 9, 12), "male", "Lowell", "Massachusetts"),
                new PatientRow(ANA, "MRN-3", "Ada", "Diaz", LocalDate.of(1990, 1, 1), "female", "Lynn", "Massachusetts"));
        return new ClinicalDataset(DatasetSpec.defaults().withPatients(3), patients, List.of(),
                List.of(new ConditionRow(1, BEN, null, LocalDate.of(2021, 1, 1), null, "38341003", "I10", "Essential hypertension (disorder)")),
                List.of(new MedicationRow(11, BEN, null, LocalDate.of(2023, 5, 2), null, "314076", "lisinopril 10 MG Oral Tablet", null, null)),
                List.of(new ClinicalNoteRow(20, "D2N001", ADA, null, LocalDate.of(2024, 12, 1), "knee pain", null, "Knee pain."),
                        new ClinicalNoteRow(21, "D2N002", BEN, null, LocalDate.of(2024, 12, 2), "cough", null, "Cough.")));
    }

    static ReplyEvent reply(ReplyType type, List<String> rows, int candidates) {
        return ReplyEvent.newBuilder().setRequestId("r").setSeq(1).setType(type).setTsMs(1L)
                .setCitations(rows.stream().map(r -> Citation.newBuilder().setIndex(1).setChunkId(r).setSourceId("ehr")
                        .setTableName(r.split(":")[0]).setRowKey(r.split(":")[1]).setGeneration(1).setSourcePosition("p")
                        .setScore(0.5).setText("t").build()).toList())
                .setCandidates(java.util.stream.IntStream.range(0, candidates).mapToObj(i -> PatientCandidate.newBuilder()
                        .setPatientKey("k" + i).setName("n").setPatientNumber("k" + i).setBirthYear(1990).build()).toList())
                .build();
    }

    @Test
    void theFollowUpMustCiteThePatientsMedicationsAndNothingOfAnotherPatient() {
        DemoConversations.Exchange followUp = DemoConversations.from(data()).get(0);

        assertThat(followUp.firstTurn()).isEqualTo("What conditions does Ben Okafor have?");
        assertThat(followUp.text()).isEqualTo("What about his medications?");
        assertThat(followUp.met(reply(ReplyType.ANSWER, List.of("medications:11", "conditions:1"), 0))).isTrue();
        assertThat(followUp.met(reply(ReplyType.ANSWER, List.of("medications:11", "clinical_notes:20"), 0)))
                .as("cites Ada's note").isFalse();
        assertThat(followUp.met(reply(ReplyType.ANSWER, List.of("conditions:1"), 0))).as("no medication").isFalse();
    }

    @Test
    void theSharedNameMustGetAClarificationWithSeveralCandidatesAndNoCitations() {
        DemoConversations.Exchange shared = DemoConversations.from(data()).get(1);

        assertThat(shared.text()).isEqualTo("What medications does Ada take?");
        assertThat(shared.met(reply(ReplyType.CLARIFY, List.of(), 2))).isTrue();
        assertThat(shared.met(reply(ReplyType.ANSWER, List.of("clinical_notes:20"), 0))).isFalse();
        assertThat(shared.met(reply(ReplyType.CLARIFY, List.of(), 1))).isFalse();
    }
}
