package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.chartstream.datasets.MedicationRow;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.CohortSummary;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class DemoCohortQuestionTest {
    private static final UUID ADA = UUID.nameUUIDFromBytes("ada".getBytes());
    private static final UUID BEN = UUID.nameUUIDFromBytes("ben".getBytes());

    private static MedicationRow medication(long id, UUID patient, String description) {
        return new MedicationRow(id, patient, null, LocalDate.of(2020, 1, 1), null, "1", description, null, null);
    }

    private static final List<MedicationRow> MEDICATIONS = List.of(medication(1, ADA, "lisinopril 10 MG Oral Tablet"),
            medication(2, BEN, "lisinopril 20 MG Oral Tablet"), medication(3, BEN, "Lisinopril 5 MG"),
            medication(4, ADA, "metformin 500 MG Oral Tablet"));

    @Test
    void theCohortIsTheDrugMostPatientsTakeWithEveryPrescriptionAndThePatientCount() {
        DemoQuestions.Question q = DemoQuestions.cohort(MEDICATIONS).orElseThrow();

        assertThat(q.text()).isEqualTo("Which patients take lisinopril?");
        assertThat(q.answeringRows()).containsExactly("medications:1", "medications:2", "medications:3");
        assertThat(q.cohortPatients()).isEqualTo(2);
    }

    @Test
    void theCohortIsAsExpectedOnlyWhenCompleteWithTheCountAndOnlyAnsweringRowsCited() {
        DemoQuestions.Question q = DemoQuestions.cohort(MEDICATIONS).orElseThrow();
        ReplyEvent.Builder reply = ReplyEvent.newBuilder().setRequestId("r").setSeq(3).setTsMs(1).setType(ReplyType.ANSWER)
                .setCitations(List.of(citation("1"), citation("2"), citation("3")))
                .setCompleteness(AnswerCompleteness.COMPLETE)
                .setCohort(CohortSummary.newBuilder().setAnchor("lisinopril").setPatients(2).setRows(3).setCap(500).build());

        assertThat(DemoCommand.expectationMet(q, reply.build())).isTrue();
        assertThat(DemoCommand.expectationMet(q, reply.setCompleteness(AnswerCompleteness.PARTIAL).build())).isFalse();
        reply.setCompleteness(AnswerCompleteness.COMPLETE);
        assertThat(DemoCommand.expectationMet(q, reply.setCohort(CohortSummary.newBuilder().setAnchor("lisinopril")
                .setPatients(1).setRows(3).setCap(500).build()).build())).isFalse();
        assertThat(DemoCommand.expectationMet(q, reply.setCohort(null).build())).isFalse();
    }

    private static Citation citation(String key) {
        return Citation.newBuilder().setIndex(Integer.parseInt(key)).setChunkId("c:" + key).setSourceId("clinical")
                .setTableName("medications").setRowKey(key).setGeneration(1).setSourcePosition("p").setScore(1).setText("t").build();
    }
}
