package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.query.QueryTopologyFixture.bytes;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.TestOutputTopic;
import org.chartstream.query.reply.RecordingReplySender;
import org.chartstream.query.request.KafkaReplyTopics;
import org.chartstream.query.scope.TestPatients;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.PatientCandidate;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clarification replies and a follow-up's inherited patient through the query topology (real Lucene and ONNX model). */
class PatientScopeTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies";
    private static final String[][] ROWS = {
            {"patients", "p7", "MRN-7", "record: patients\npatient: Elizabeth Ross (MRN-7)\npatient no: MRN-7\nbirth date: 1961-03-02"},
            {"patients", "p12", "MRN-12", "record: patients\npatient: Sophia Jackson (MRN-12)\npatient no: MRN-12\nbirth date: 1980-05-09"},
            {"patients", "p31", "MRN-31", "record: patients\npatient: Sophia Brown (MRN-31)\npatient no: MRN-31\nbirth date: 1975-11-23"},
            {"conditions", "c1", "MRN-7", "record: conditions\npatient: Elizabeth Ross (MRN-7)\nicd10 code: I10\ndescription: Essential hypertension"},
            {"medications", "m1", "MRN-7", "record: medications\npatient: Elizabeth Ross (MRN-7)\ndescription: lisinopril 10 MG Oral Tablet"},
            {"medications", "m2", "MRN-12", "record: medications\npatient: Sophia Jackson (MRN-12)\ndescription: lisinopril 20 MG Oral Tablet"},
            {"clinical_notes", "n2", "MRN-31", "record: clinical notes\npatient: Sophia Brown (MRN-31)\nchief complaint: medication review\nnote text: Her medications were reviewed; metformin continued."},
    };

    @TempDir
    static Path dir;
    private static QueryTopologyFixture fixture;
    private static RecordingReplySender.Topic replies;
    private static TestOutputTopic<String, AnswerAudit> audit;

    @BeforeAll
    static void configure() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(Arrays.stream(ROWS).map(r -> fixture.chunk(r[0], r[1], r[3]).patient(r[2])
                .label(TestPatients.label(r[0], r[2])).source("lsn:3", 1L).build()).toList());
        fixture.start("scope-test", null, (serving, sender) -> QueryTopology.build(serving,
                KafkaReplyTopics::fromStreamsConfig, sender));
        replies = fixture.replies(REPLY_TOPIC);
        audit = fixture.audit();
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @BeforeEach
    void drain() {
        fixture.drain();
    }

    private static List<ReplyEvent> ask(String conversation, String id, String question) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId(conversation).setUserId("clinician-1")
                .setQuestion(question).setTopK(3).build();
        fixture.produce(conversation, bytes(r), REPLY_TOPIC, null);
        fixture.awaitIdle();
        return replies.readValuesToList();
    }

    @Test
    void aNameTwoPatientsShareGetsAFinalClarificationListingThemAndNoCitations() {
        List<ReplyEvent> events = ask("c-amb", "s1", "What medications does Sophia take?");

        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CLARIFY);
        ReplyEvent clarify = events.get(1);
        assertThat(clarify.getCitations()).isEmpty();
        assertThat(clarify.getText()).startsWith("Which patient do you mean?").contains("Sophia Brown (MRN-31, born 1975)");
        assertThat(clarify.getCandidates()).extracting(PatientCandidate::getName, PatientCandidate::getPatientNumber,
                PatientCandidate::getBirthYear).containsExactly(org.assertj.core.groups.Tuple.tuple("Sophia Brown", "MRN-31", 1975),
                org.assertj.core.groups.Tuple.tuple("Sophia Jackson", "MRN-12", 1980));
        AnswerAudit record = audit.readValue();
        assertThat(record.getOutcome()).isEqualTo(ReplyType.CLARIFY);
        assertThat(record.getPatientScope()).isEqualTo("ambiguous: 2 candidate patients");
        assertThat(record.getCited()).isEmpty();
    }

    @Test
    void aFollowUpInheritsTheFirstTurnsPatientAcrossTwoTurnsAndTheAuditSaysSo() {
        List<ReplyEvent> first = ask("c-follow", "f1", "What conditions does Elizabeth Ross have?");
        assertThat(first.get(first.size() - 1).getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(audit.readValue().getPatientScope()).isEqualTo("named: patient MRN-7");

        List<ReplyEvent> second = ask("c-follow", "f2", "What about her medications?");

        ReplyEvent answer = second.get(second.size() - 1);
        assertThat(answer.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCitations()).isNotEmpty().allSatisfy(c -> assertThat(c.getRowKey()).isIn("p7", "c1", "m1"));
        assertThat(answer.getCitations()).extracting(c -> c.getRowKey()).contains("m1");
        assertThat(audit.readValue().getPatientScope()).isEqualTo("inherited: patient MRN-7");
    }

    @Test
    void aFollowUpInAConversationThatNamedNoPatientAsksWhich() {
        ask("c-none", "n1", "Which patient has a condition with ICD-10 code Z99.9?");
        audit.readValuesToList();

        List<ReplyEvent> events = ask("c-none", "n2", "What about her medications?");

        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CLARIFY);
        assertThat(audit.readValue().getPatientScope()).isEqualTo("ambiguous: 0 candidate patients");
    }
}
