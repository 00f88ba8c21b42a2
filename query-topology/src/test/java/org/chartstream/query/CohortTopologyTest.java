package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.query.QueryTopologyFixture.bytes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.TestOutputTopic;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.query.reply.RecordingReplySender;
import org.chartstream.query.request.ReplyTopicPolicy;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.CohortSummary;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cohort questions and anchored precision through the query topology, over a real Lucene store and the real ONNX
 * model: every row holding the question's code or drug is listed (not a top k), grouped by patient and counted, the
 * reply says it is complete; a misspelt drug is looked up as the nearest indexed word; a drug nobody takes is refused;
 * a ranked answer says it lists the most relevant records and cites only passages that mention the question's anchors.
 */
class CohortTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies.cohort";
    private static final RequestIntegrity INTEGRITY = new RequestIntegrity(new ReplyTopicPolicy(List.of("chartstream.replies.*"),
            Set.of("ehr"), Set.of("cohort-test")), Duration.ofDays(1));

    @TempDir
    static Path dir;
    private static QueryTopologyFixture fixture;
    private static RecordingReplySender.Topic replies;
    private static TestOutputTopic<String, AnswerAudit> audit;

    private static String[][] rows() {
        List<String[]> rows = new ArrayList<>();
        String[][] patients = {{"MRN-1", "Martha Collins"}, {"MRN-2", "Andrew Perez"}, {"MRN-3", "John Perry"},
                {"MRN-4", "Anna Mitchell"}, {"MRN-5", "Elizabéth Róss"}, {"MRN-6", "James Allen"}};
        // lisinopril prescribed to the first four patients, twice to Martha Collins; a note of a fifth mentions it
        for (int i = 0; i < 4; i++) {
            rows.add(medication("m" + i, patients[i], "314076", "lisinopril 10 MG Oral Tablet", "Essential hypertension"));
        }
        rows.add(medication("m4", patients[0], "314077", "lisinopril 20 MG Oral Tablet", "Essential hypertension"));
        rows.add(medication("m5", patients[4], "860975", "metformin hydrochloride 500 MG Oral Tablet", "Diabetes mellitus type 2"));
        rows.add(medication("m6", patients[5], "197361", "amlodipine 5 MG Oral Tablet", "Essential hypertension"));
        rows.add(new String[] {"clinical_notes", "n1", patients[5][0], "record: clinical notes\npatient: James Allen (MRN-6)\n"
                + "chief complaint: dizziness\nnote text: Dizzy on standing. Lisinopril was stopped last year; continue amlodipine.",
                patients[5][1]});
        rows.add(condition("c1", patients[1], "E11.9", "Diabetes mellitus type 2"));
        rows.add(condition("c2", patients[4], "E11.9", "Diabetes mellitus type 2"));
        rows.add(condition("c3", patients[2], "E11.91", "Type 2 diabetes with hypoglycemia"));
        for (int i = 0; i < 6; i++) {
            rows.add(condition("h" + i, patients[i], "I10", "Essential hypertension"));
        }
        return rows.toArray(String[][]::new);
    }

    private static String[] medication(String key, String[] patient, String rxnorm, String description, String reason) {
        return new String[] {"medications", key, patient[0], "record: medications\npatient: " + patient[1] + " (" + patient[0]
                + ")\nrxnorm code: " + rxnorm + "\ndescription: " + description + "\nreason description: " + reason, patient[1]};
    }

    private static String[] condition(String key, String[] patient, String icd10, String description) {
        return new String[] {"conditions", key, patient[0], "record: conditions\npatient: " + patient[1] + " (" + patient[0]
                + ")\nicd10 code: " + icd10 + "\ndescription: " + description, patient[1]};
    }

    @BeforeAll
    static void configure() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(java.util.Arrays.stream(rows()).map(r -> fixture.chunk(r[0], r[1], r[3]).patient(r[2])
                .label(PatientLabel.of(r[2], r[4], null)).build()).toList());
        fixture.start("cohort-test", null, (serving, sender) -> QueryTopology.build(serving.withIntegrity(INTEGRITY),
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

    private static ReplyEvent ask(String id, String question, RetrievalFilterSpec filter) {
        QueryRequest.Builder request = QueryRequest.newBuilder().setRequestId(id).setConversationId("conv-" + id)
                .setUserId("clinician-1").setQuestion(question).setTopK(6);
        if (filter != null) {
            request.setFilter(filter);
        }
        fixture.produce("conv-" + id, bytes(request.build()), REPLY_TOPIC, "corr-" + id);
        fixture.awaitIdle();
        List<ReplyEvent> events = replies.readValuesToList();
        return events.get(events.size() - 1);
    }

    @Test
    void aDrugCohortListsEveryPrescriptionByPatientWithItsCountAndSaysItIsComplete() {
        ReplyEvent reply = ask("k1", "Which patients take lisinopril?", null);

        assertThat(reply.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(reply.getCompleteness()).isEqualTo(AnswerCompleteness.COMPLETE);
        assertThat(reply.getCohort()).isEqualTo(CohortSummary.newBuilder().setAnchor("lisinopril").setPatients(4).setRows(5)
                .setCap(500).build());
        assertThat(reply.getCitations()).hasSize(5).extracting(Citation::getTableName).containsOnly("medications");
        assertThat(reply.getText()).startsWith("Complete list: 4 patients with 5 records in medications holding \"lisinopril\"")
                .contains("- Andrew Perez (MRN-2): [1]\n").contains("- Martha Collins (MRN-1): [4] [5]").doesNotContain("James Allen");
        AnswerAudit record = audit.readValue();
        assertThat(record.getCompleteness()).isEqualTo(AnswerCompleteness.COMPLETE);
        assertThat(record.getCohort().getRows()).isEqualTo(5);
        assertThat(record.getCited()).hasSize(5);
    }

    @Test
    void aBareCodeWithinTheRequestsTableIsACohortOfTheRowsHoldingItWhole() {
        RetrievalFilterSpec conditions = RetrievalFilterSpec.newBuilder().setTables(List.of("conditions")).build();
        ReplyEvent reply = ask("k2", "Which patients have a condition with ICD-10 code E11.9?", conditions);

        assertThat(reply.getCompleteness()).isEqualTo(AnswerCompleteness.COMPLETE);
        assertThat(reply.getCitations()).extracting(Citation::getRowKey).containsExactlyInAnyOrder("c1", "c2");
        assertThat(reply.getCohort().getPatients()).isEqualTo(2);
        ReplyEvent bare = ask("k2b", "E11.9", conditions);
        assertThat(bare.getCompleteness()).isEqualTo(AnswerCompleteness.COMPLETE);
        assertThat(bare.getCitations()).extracting(Citation::getRowKey).containsExactlyInAnyOrder("c1", "c2");
    }

    @Test
    void aMisspeltDrugIsLookedUpAsTheNearestIndexedWordAndTheAnswerSaysSo() {
        ReplyEvent reply = ask("k3", "Which patients take lisinoprl?", null);

        assertThat(reply.getType()).isEqualTo(ReplyType.ANSWER);
        // the word as the first record holding it (in row id order) writes it: the note's "Lisinopril"
        assertThat(reply.getText()).startsWith("No record mentions \"lisinoprl\"").contains("did you mean \"Lisinopril\"?");
        assertThat(reply.getCohort().getAnchor()).isEqualTo("Lisinopril");
        assertThat(reply.getCitations()).hasSize(5);
    }

    @Test
    void aDrugNoRecordMentionsIsRefusedLikeAnAbsentCode() {
        ReplyEvent reply = ask("k4", "Which patient has been prescribed zolmitriptan?", null);

        assertThat(reply.getType()).isEqualTo(ReplyType.REFUSED);
        assertThat(reply.getCitations()).isEmpty();
        assertThat(reply.getText()).contains("no indexed record mentions");
        assertThat(reply.getCompleteness()).isNull();
    }

    @Test
    void aRankedAnswerSaysItListsTheMostRelevantRecordsAndCitesOnlyPassagesMentioningItsAnchors() {
        ReplyEvent named = ask("k5", "What medications does Elizabeth Ross take?", null);
        assertThat(named.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(named.getCompleteness()).isEqualTo(AnswerCompleteness.MOST_RELEVANT);
        assertThat(named.getText()).contains("lists the most relevant records, not every matching one");
        assertThat(named.getCitations()).isNotEmpty().allSatisfy(c -> assertThat(c.getText()).contains("(MRN-5)"));

        // ranked (not a question for every patient), and every cited passage holds the code: not E11.91, not I10
        ReplyEvent code = ask("k6", "diabetes mellitus type 2 coded E11.9", null);
        assertThat(code.getCitations()).as(code.getText()).isNotEmpty().extracting(Citation::getRowKey).allMatch(k -> k.equals("c1") || k.equals("c2"));

        ReplyEvent unanchored = ask("k7", "Which patients have high blood pressure?", null);
        assertThat(unanchored.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(unanchored.getCompleteness()).isEqualTo(AnswerCompleteness.PARTIAL);
        assertThat(unanchored.getCompletenessReason()).contains("names no exact code, drug or condition");
        assertThat(unanchored.getCohort()).isNull();
    }
}
