package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.query.QueryTopologyFixture.bytes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.TestOutputTopic;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.query.reply.RecordingReplySender;
import org.chartstream.query.request.ReplyTopicPolicy;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.SetOutput;
import org.chartstream.schemas.SetResult;
import org.chartstream.schemas.SetValue;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-set answers through the query topology, over a real Lucene store and the real ONNX model, planned on the
 * tables a binding describes: the reply carries the set's exact counts, patients and values as fields, the audit its
 * counts, and the conversation memory the set's patients, so a follow-up about "they" is answered over exactly them.
 */
class SetAnswerTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies.sets";
    private static final RequestIntegrity INTEGRITY = new RequestIntegrity(new ReplyTopicPolicy(List.of("chartstream.replies.*"),
            Set.of("ehr"), Set.of("set-test")), Duration.ofDays(1));

    @TempDir
    static Path dir;
    private static QueryTopologyFixture fixture;
    private static RecordingReplySender.Topic replies;
    private static TestOutputTopic<String, AnswerAudit> audit;

    private static TableBinding table(String name, TableRole role, String concept, String conceptField, List<String> fields,
                                      Map<String, List<String>> terms) {
        return new TableBinding(name, role, List.of(), "subject_id", null, null, role == TableRole.PATIENT ? "subject_id" : null,
                List.of(), null, List.of(), null, fields, List.of(), Map.of(), terms, List.of(), concept, conceptField,
                EmbedPolicy.ROW);
    }

    private static Map<String, SourceBinding> bindings() {
        return Map.of(QueryTopologyFixture.SOURCE, SourceBinding.of(List.of(
                table("patients", TableRole.PATIENT, null, null, List.of("subject_id", "gender"), Map.of()),
                table("prescriptions", TableRole.EVENT, "medication", "drug", List.of("drug", "route"),
                        Map.of("route", List.of("administered", "given by"))),
                table("diagnoses", TableRole.EVENT, "diagnosis", "diagnosis", List.of("icd_code", "diagnosis"), Map.of()))));
    }

    private static List<StoredChunk> rows() {
        List<StoredChunk> rows = new ArrayList<>();
        for (String patient : List.of("10000001", "10000002", "10000003", "10000004")) {
            rows.add(row("patients", patient, patient, "subject_id", patient, "gender", "F"));
        }
        rows.add(row("prescriptions", "r1", "10000001", "drug", "Lisinopril", "route", "PO"));
        rows.add(row("prescriptions", "r2", "10000001", "drug", "Lisinopril", "route", "PO"));
        rows.add(row("prescriptions", "r3", "10000002", "drug", "Lisinopril", "route", "PO"));
        rows.add(row("prescriptions", "r4", "10000003", "drug", "Amoxicillin", "route", "PO"));
        rows.add(row("prescriptions", "r5", "10000004", "drug", "Amoxicillin", "route", "IV"));
        rows.add(row("prescriptions", "r6", "10000004", "drug", "Amoxicillin", "route", "PO"));
        rows.add(row("diagnoses", "d1", "10000001", "icd_code", "I10", "diagnosis", "Essential (primary) hypertension"));
        rows.add(row("diagnoses", "d2", "10000002", "icd_code", "I480", "diagnosis", "Paroxysmal atrial fibrillation"));
        rows.add(row("diagnoses", "d3", "10000003", "icd_code", "E119", "diagnosis", "Type 2 diabetes mellitus without complications"));
        rows.add(row("diagnoses", "d4", "10000004", "icd_code", "I10", "diagnosis", "Essential (primary) hypertension"));
        return rows;
    }

    /** A row of one chunk whose text and shown fields are {@code fieldPairs} (name, value, …). */
    private static StoredChunk row(String table, String key, String patient, String... fieldPairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder("record: ").append(table).append("\npatient ").append(patient);
        for (int i = 0; i < fieldPairs.length; i += 2) {
            fields.put(fieldPairs[i], fieldPairs[i + 1]);
            text.append('\n').append(fieldPairs[i]).append(": ").append(fieldPairs[i + 1]);
        }
        return fixture.chunk(table, key, text.toString()).patient(patient).label(PatientLabel.of(patient, null, null)).build()
                .withFields(fields);
    }

    @BeforeAll
    static void configure() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(rows());
        fixture.start("set-test", null, bindings(), (serving, sender) -> QueryTopology.build(serving.withIntegrity(INTEGRITY),
                streamsConfig -> Set.of(REPLY_TOPIC, Topics.REQUESTS)::contains, sender));
        replies = fixture.replies(REPLY_TOPIC);
        audit = fixture.audit();
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @BeforeEach
    void drainOutputs() {
        fixture.drain();
    }

    private static ReplyEvent ask(String conversation, String id, String question) {
        QueryRequest request = QueryRequest.newBuilder().setRequestId(id).setConversationId(conversation)
                .setUserId("clinician-1").setQuestion(question).setTopK(6).build();
        fixture.produce(conversation, bytes(request), REPLY_TOPIC, "corr-" + id);
        fixture.awaitIdle();
        List<ReplyEvent> events = replies.readValuesToList();
        return events.get(events.size() - 1);
    }

    @Test
    void aWholeSetOfPatientsTravelsAsFieldsAndAFollowUpAboutThemIsAnsweredOverExactlyThatSet() {
        ReplyEvent cohort = ask("conv-set", "s1", "Which patients take lisinopril?");

        assertThat(cohort.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(cohort.getCompleteness()).as("the drug's records named, not every brand").isEqualTo(AnswerCompleteness.PARTIAL);
        SetResult set = cohort.getSetResult();
        assertThat(set.getOutput()).isEqualTo(SetOutput.PATIENTS);
        assertThat(set.getRows()).isEqualTo(3);
        assertThat(set.getPatients()).isEqualTo(2);
        assertThat(set.getPatientsListed()).containsExactly("10000001", "10000002");
        assertThat(set.getConcepts()).singleElement().asString().contains("Lisinopril");
        assertThat(set.getComplete()).isTrue();
        assertThat(set.getListsCut()).isFalse();
        AnswerAudit cohortAudit = audit.readValue();
        assertThat(cohortAudit.getSetResult().getPatients()).isEqualTo(2);
        assertThat(cohortAudit.getSetResult().getPatientsListed()).isEqualTo(2);

        ReplyEvent followUp = ask("conv-set", "s2", "What were they diagnosed with?");

        assertThat(followUp.getType()).as(followUp.getText()).isEqualTo(ReplyType.ANSWER);
        SetResult diagnoses = followUp.getSetResult();
        assertThat(diagnoses.getPatients()).isEqualTo(2);
        assertThat(diagnoses.getValues()).extracting(SetValue::getValue)
                .containsExactlyInAnyOrder("Essential (primary) hypertension", "Paroxysmal atrial fibrillation");
        assertThat(followUp.getCitations()).extracting(Citation::getRowKey).containsExactlyInAnyOrder("d1", "d2");
    }

    @Test
    void theValuesOfAFieldTravelWithTheirRowAndPatientCounts() {
        ReplyEvent routes = ask("conv-routes", "s3", "How is amoxicillin administered?");

        assertThat(routes.getType()).as(routes.getText()).isEqualTo(ReplyType.ANSWER);
        SetResult set = routes.getSetResult();
        assertThat(set.getOutput()).isEqualTo(SetOutput.VALUES);
        assertThat(set.getField()).isEqualTo("route");
        assertThat(set.getRows()).isEqualTo(3);
        assertThat(set.getPatients()).isEqualTo(2);
        assertThat(set.getValues()).containsExactlyInAnyOrder(new SetValue("PO", 2L, 2L), new SetValue("IV", 1L, 1L));
        assertThat(set.getComplete()).isTrue();
    }
}
