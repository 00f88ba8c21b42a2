package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.query.QueryTopologyFixture.bytes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.reply.RecordingReplySender;
import org.chartstream.query.request.ReplyTopicPolicy;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.DeadLetter;
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

/** Configure a real Lucene store and the real ONNX model, produce requests, verify reply events and audit. */
class QueryTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies.test";
    private static final String RETRY_TOPIC = "chartstream.replies.retry";
    /** The test driver has no broker to list topics: a fixed set of existing topics stands in for its metadata. */
    private static final Set<String> EXISTING_TOPICS = Set.of(REPLY_TOPIC, RETRY_TOPIC, Topics.REPLIES,
            Topics.INDEX, Topics.REQUESTS, "elsewhere.replies", "query-test-pending-requests-changelog", "ehr.public.patients");
    private static final String[][] ROWS = {
            {"medications", "m1", "MRN-1", "record: medications\npatient: Martha Collins (MRN-1)\nrxnorm code: 860975\ndescription: metformin hydrochloride 500 MG Extended Release Oral Tablet\nreason description: Diabetes mellitus type 2"},
            {"conditions", "c1", "MRN-1", "record: conditions\npatient: Martha Collins (MRN-1)\nicd10 code: I10\ndescription: Essential hypertension"},
            {"conditions", "c2", "MRN-2", "record: conditions\npatient: Andrew Perez (MRN-2)\nicd10 code: E03.9\ndescription: Hypothyroidism"},
            {"clinical_notes", "n1", "MRN-2", "record: clinical notes\npatient: Andrew Perez (MRN-2)\nchief complaint: joint pain\nnote text: Kidney transplant recipient with worsening right knee pain after a fall."},
    };

    private static final RequestIntegrity INTEGRITY = new RequestIntegrity(new ReplyTopicPolicy(List.of("chartstream.replies",
            "chartstream.replies.*", "chartstream.index", "chartstream.requests", "query-test-*", "ehr.*"), Set.of("ehr"),
            Set.of("query-test")), Duration.ofDays(1));

    @TempDir
    static Path dir;
    private static QueryTopologyFixture fixture;
    private static AdmissionControl admission;
    private static RecordingReplySender.Topic replies;
    private static RecordingReplySender.Topic defaultReplies;
    private static RecordingReplySender.Topic retryReplies;
    private static RecordingReplySender.Topic requestTopic;
    private static RecordingReplySender.Topic indexTopic;
    private static TestOutputTopic<String, AnswerAudit> audit;
    private static TestOutputTopic<String, DeadLetter> deadLetters;

    @BeforeAll
    static void configure() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(Arrays.stream(ROWS).map(r -> fixture.chunk(r[0], r[1], r[3]).patient(r[2]).source("lsn:7", 1L).build()).toList());
        fixture.start("query-test", null, (serving, sender) -> QueryTopology.build(serving.withIntegrity(INTEGRITY),
                streamsConfig -> EXISTING_TOPICS::contains, sender));
        admission = fixture.admission();
        replies = fixture.replies(REPLY_TOPIC);
        defaultReplies = fixture.replies(Topics.REPLIES);
        retryReplies = fixture.replies(RETRY_TOPIC);
        requestTopic = fixture.replies(Topics.REQUESTS);
        indexTopic = fixture.replies(Topics.INDEX);
        audit = fixture.audit();
        deadLetters = fixture.deadLetters();
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @BeforeEach
    void drainOutputs() {
        fixture.drain();
    }

    private static void post(String conversation, byte[] value, String correlationId) {
        fixture.produce(conversation, value, REPLY_TOPIC, correlationId);
        fixture.awaitIdle();
    }

    private static QueryRequest.Builder request(String id, String question) {
        return QueryRequest.newBuilder().setRequestId(id).setConversationId("conv-" + id).setUserId("clinician-1")
                .setQuestion(question).setTopK(3);
    }

    @Test
    void aQuestionIsAcceptedThenCitedThenAnsweredExtractivelyOnItsReplyTopic() {
        post("conv-1", bytes(request("r1", "Which patient takes metformin for diabetes?").build()), "corr-1");

        List<TestRecord<String, ReplyEvent>> events = replies.readRecordsToList();
        assertThat(events).extracting(e -> e.value().getType()).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
        assertThat(events).extracting(e -> e.value().getSeq()).containsExactly(0, 1, 2);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.key()).isEqualTo("r1");
            assertThat(e.value().getCorrelationId()).isEqualTo("corr-1");
        });
        ReplyEvent answer = events.get(2).value();
        assertThat(answer.getExtractive()).isTrue();
        assertThat(answer.getText()).startsWith("Extractive answer").contains("[1]");
        assertThat(answer.getCitations().get(0).getRowKey()).isEqualTo("m1");
        assertThat(answer.getCitations().get(0).getGeneration()).isEqualTo(1);
        assertThat(answer.getCitations()).extracting(c -> c.getIndex()).startsWith(1, 2);

        AnswerAudit record = audit.readValue();
        assertThat(record.getRequestId()).isEqualTo("r1");
        assertThat(record.getOutcome()).isEqualTo(ReplyType.ANSWER);
        assertThat(record.getVectorHits()).isNotEmpty();
        assertThat(record.getLexicalHits()).isNotEmpty();
        assertThat(record.getCited().get(0).getChunkId()).isEqualTo("ehr:medications:m1:0:1");
        assertThat(record.getCited().get(0).getContentSha256()).as("the cited text's hash, not the text").matches("[0-9a-f]{64}");
        assertThat(record.getStageMs()).containsKeys("embed", "search", "fuse", "gate", "total");
    }

    @Test
    void aPatientFilterIsExactOnBothSides() {
        // unfiltered, both sides would rank Andrew Perez's (MRN-2) hypothyroidism first
        post("conv-2", bytes(request("r2", "hypothyroidism")
                .setFilter(RetrievalFilterSpec.newBuilder().setPatient("MRN-1").build()).build()), "corr-2");

        AnswerAudit record = audit.readValue();
        assertThat(record.getVectorHits()).isNotEmpty();
        assertThat(record.getLexicalHits()).isEmpty(); // no MRN-1 row mentions the word
        assertThat(record.getVectorHits()).extracting(h -> h.getId())
                .containsExactlyInAnyOrder("ehr:medications:m1:0:1", "ehr:conditions:c1:0:1");
        List<ReplyEvent> events = replies.readValuesToList();
        assertThat(events.get(events.size() - 1).getCitations()).allSatisfy(c -> assertThat(c.getRowKey()).isIn("m1", "c1"));
    }

    @Test
    void aQuestionTheRecordsCannotAnswerIsRefused() {
        post("conv-3", bytes(request("r3", "What time does the hospital cafeteria open on Sundays?").build()), "corr-3");

        List<ReplyEvent> events = replies.readValuesToList();
        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.REFUSED);
        assertThat(events.get(1).getCitations()).isEmpty();
        assertThat(audit.readValue().getGateDecision()).startsWith("refuse");
    }

    @Test
    void badRequestsGetAnErrorNamingTheProblemAndADeadLetterAndTheNextRequestIsStillAnswered() {
        post("conv-4", "{\"question\":\"not avro\"}".getBytes(StandardCharsets.UTF_8), "corr-4");
        post("conv-5", bytes(request("r5", "   ").build()), "corr-5");
        post("conv-6", bytes(request("r6", "x".repeat(100_000)).build()), "corr-6");
        post("conv-7", bytes(request("r7", "hypothyroidism").setTopK(0).build()), "corr-7");
        post("conv-8", bytes(request("r8", "hypothyroidism").build()), "corr-8");

        List<ReplyEvent> events = replies.readValuesToList();
        assertThat(events.subList(0, 4)).extracting(ReplyEvent::getType).containsOnly(ReplyType.ERROR);
        assertThat(events.get(0).getRequestId()).isEqualTo("corr-4");
        assertThat(events.get(0).getError()).contains("not a QueryRequest");
        assertThat(events.get(1).getError()).isEqualTo("field 'question' is empty");
        assertThat(events.get(2).getError()).isEqualTo("field 'question' has 100000 characters; the limit is 4000");
        assertThat(events.get(3).getError()).contains("field 'top_k' is 0");
        assertThat(events.get(events.size() - 1).getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(events.get(events.size() - 1).getCitations().get(0).getRowKey()).isEqualTo("c2");

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(4);
        assertThat(dead).extracting(DeadLetter::getStage).containsOnly("query.validate");
        assertThat(dead.get(0).getReason()).contains("not a QueryRequest");
        audit.readValuesToList();
    }

    @Test
    void pastTheAdmissionLimitARequestGetsABusyReplyAtOnce() {
        for (int i = 0; i < admission.limit(); i++) {
            assertThat(admission.tryAcquire(i)).isTrue();
        }
        try {
            fixture.produce("conv-9", bytes(request("r9", "hypothyroidism").build()), REPLY_TOPIC, null);
            List<ReplyEvent> events = replies.readValuesToList();
            assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.BUSY);
            assertThat(events.get(0).getError()).contains("busy");
            assertThat(audit.readValue().getOutcome()).isEqualTo(ReplyType.BUSY);
        } finally {
            for (int i = 0; i < admission.limit(); i++) {
                admission.release(i, i); // a fixed limit: the latency moves nothing
            }
        }
    }

    @Test
    void pastTheAdmissionLimitATurnWhoseConversationHasATurnInFlightWaitsBehindItInsteadOfOvertakingItWithBusy() {
        fixture.replySender().holdAcknowledgements(); // the first turn stays in flight until the broker has its answer
        int filled = 0;
        try {
            fixture.produce("queue", bytes(request("r13a", "hypothyroidism").setConversationId("queue").build()), REPLY_TOPIC, null);
            List<ReplyEvent> events = new ArrayList<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while ((events.isEmpty() || events.get(events.size() - 1).getType() != ReplyType.ANSWER) && System.nanoTime() < deadline) {
                fixture.advance();
                events.addAll(replies.readValuesToList());
            }
            while (admission.tryAcquire(1_000 + filled)) {
                filled++;
            }
            fixture.produce("queue", bytes(request("r13b", "hypothyroidism").setConversationId("queue").build()), REPLY_TOPIC, null);
            fixture.produce("other", bytes(request("r13c", "hypothyroidism").setConversationId("other").build()), REPLY_TOPIC, null);
            fixture.advance();
            events.addAll(replies.readValuesToList());
            assertThat(events.stream().filter(e -> e.getType() == ReplyType.BUSY).map(ReplyEvent::getRequestId))
                    .as("only the request of a conversation with nothing in flight is turned away").containsExactly("r13c");
        } finally {
            fixture.replySender().acknowledgeHeld();
            for (int i = 0; i < filled; i++) {
                admission.release(1_000 + i, 1_000 + i);
            }
        }
        fixture.awaitIdle();
        assertThat(replies.readValuesToList().stream().filter(e -> e.getType() == ReplyType.ANSWER).map(ReplyEvent::getRequestId))
                .as("the second turn is answered after the first").containsExactly("r13b");
        audit.readValuesToList();
    }

    @Test
    void anAnswerLeavesAtOnceWhileItsAuditMemoryAndAdmissionSlotWaitForTheBrokersAcknowledgement() {
        fixture.replySender().holdAcknowledgements();
        try {
            fixture.produce("conv-12", bytes(request("r12", "hypothyroidism").build()), REPLY_TOPIC, "corr-12");
            List<ReplyEvent> events = new ArrayList<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while ((events.isEmpty() || events.get(events.size() - 1).getType() != ReplyType.ANSWER) && System.nanoTime() < deadline) {
                fixture.advance();
                events.addAll(replies.readValuesToList());
            }
            assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
            fixture.advance();
            assertThat(audit.isEmpty()).as("no audit record before the reply is on the broker").isTrue();
            assertThat(admission.inFlight()).as("the request still holds its slot").isEqualTo(1);
        } finally {
            fixture.replySender().acknowledgeHeld();
        }
        fixture.awaitIdle();
        assertThat(audit.readValuesToList()).extracting(AnswerAudit::getRequestId).containsExactly("r12");
    }

    @Test
    void aConversationBelongsToItsUserAndItsTurnsAreAnsweredInOrder() {
        post("conv-10", bytes(request("r10a", "hypothyroidism").setConversationId("shared").build()), "corr-10a");
        assertThat(replies.readValuesToList()).extracting(ReplyEvent::getType).endsWith(ReplyType.ANSWER);

        post("conv-10", bytes(request("r10b", "hypothyroidism").setConversationId("shared").setUserId("someone-else").build()), "corr-10b");
        List<ReplyEvent> intruder = replies.readValuesToList();
        assertThat(intruder).extracting(ReplyEvent::getType).containsExactly(ReplyType.ERROR);
        assertThat(intruder.get(0).getError()).isEqualTo("conversation 'shared' belongs to another user");
        assertThat(intruder.get(0).getText()).isNull();

        for (String id : List.of("r11a", "r11b", "r11c")) {
            fixture.produce("turns", bytes(request(id, "Which patient takes metformin?").setConversationId("turns").build()), REPLY_TOPIC, null);
        }
        fixture.awaitIdle();
        assertThat(replies.readValuesToList().stream().filter(e -> e.getType() == ReplyType.ANSWER).map(ReplyEvent::getRequestId))
                .containsExactly("r11a", "r11b", "r11c");
    }

    /** Posts a request that names no problem and asserts it is still answered (the topology keeps serving). */
    private static void assertStillServing(String id) {
        post("conv-" + id, bytes(request(id, "hypothyroidism").build()), "corr-" + id);
        List<ReplyEvent> events = replies.readValuesToList();
        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
        assertThat(events.get(2).getCitations().get(0).getRowKey()).isEqualTo("c2");
        audit.readValuesToList();
    }

    /** The one error reply (on the given reply topic output) and the one dead letter, both naming the problem. */
    private static void assertRejected(RecordingReplySender.Topic on, String key, String problem) {
        List<TestRecord<String, ReplyEvent>> errors = on.readRecordsToList();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).key()).isEqualTo(key);
        assertThat(errors.get(0).value().getType()).isEqualTo(ReplyType.ERROR);
        assertThat(errors.get(0).value().getError()).isEqualTo(problem);
        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getStage()).isEqualTo("query.validate");
        assertThat(dead.get(0).getReason()).isEqualTo(problem);
        assertThat(dead.get(0).getSourceTopic()).isEqualTo(Topics.REQUESTS);
        assertThat(dead.get(0).getValue()).isNotNull();
        assertThat(audit.readValue().getOutcome()).isEqualTo(ReplyType.ERROR);
    }

    @Test
    void aRequestWithAMissingFieldIsRejectedNamingTheFieldKeyedByItsCorrelationIdWhenItHasNoId() {
        post("conv-20", bytes(request("r20", "hypothyroidism").setUserId("").build()), "corr-20");
        assertRejected(replies, "r20", "field 'user_id' is empty");
        assertStillServing("r20ok");

        post("conv-21", bytes(request("", "hypothyroidism").build()), "corr-21");
        assertRejected(replies, "corr-21", "field 'request_id' is empty");
        assertStillServing("r21ok");
    }

    @Test
    void truncatedAvroBytesAreNotAQueryRequest() {
        byte[] whole = bytes(request("r22", "hypothyroidism").build());
        post("conv-22", Arrays.copyOf(whole, 14), "corr-22");
        assertRejected(replies, "corr-22", "the message is not a QueryRequest (expected Avro single-object encoding)");
        assertStillServing("r22ok");
    }

    @Test
    void anEmptyQuestionIsRejected() {
        post("conv-23", bytes(request("r23", "").build()), "corr-23");
        assertRejected(replies, "r23", "field 'question' is empty");
        assertStillServing("r23ok");
    }

    @Test
    void aFilterNamingATableOrSourceOutsideTheIndexIsRejectedNamingItAndTheIndexedOnes() {
        post("conv-24", bytes(request("r24", "hypothyroidism")
                .setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("conditions", "billing")).build()).build()), "corr-24");
        assertRejected(replies, "r24", "field 'filter.tables' names 'billing', which is not an indexed table"
                + " (indexed: clinical_notes, conditions, medications)");
        assertStillServing("r24ok");

        post("conv-25", bytes(request("r25", "hypothyroidism")
                .setFilter(RetrievalFilterSpec.newBuilder().setSourceIds(List.of("payroll")).build()).build()), "corr-25");
        assertRejected(replies, "r25", "field 'filter.source_ids' names 'payroll', which is not an indexed source (indexed: ehr)");
        assertStillServing("r25ok");
    }

    @Test
    void anInjectionShapedPatientFilterIsRejectedAndAnIdentifierShapedOneIsAnExactLiteralThatMatchesNoRecord() {
        for (String value : List.of("x' OR '1'='1", "{\"$ne\":null}", "*")) {
            String id = "r26-" + Integer.toHexString(value.hashCode());
            post("conv-" + id, bytes(request(id, "hypothyroidism")
                    .setFilter(RetrievalFilterSpec.newBuilder().setPatient(value).build()).build()), "corr-" + id);
            assertRejected(replies, id, "field 'filter.patient' is not a patient identifier: it must start with a letter or digit"
                    + " and hold only letters, digits, spaces and . _ : / # -");
        }
        // shaped like an identifier but not one: matched as a literal, so nothing is found and the question is refused
        for (RetrievalFilterSpec filter : List.of(RetrievalFilterSpec.newBuilder().setPatient("MRN-1 OR MRN-2").build(),
                RetrievalFilterSpec.newBuilder().setRowKeys(List.of("{\"$ne\":null}")).build())) {
            String id = "r26-" + Integer.toHexString(filter.hashCode());
            post("conv-" + id, bytes(request(id, "hypothyroidism").setFilter(filter).build()), "corr-" + id);

            List<ReplyEvent> events = replies.readValuesToList();
            assertThat(events).as(filter.toString()).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.REFUSED);
            assertThat(events.get(1).getCitations()).isEmpty();
            AnswerAudit record = audit.readValue();
            assertThat(record.getVectorHits()).as(filter.toString()).isEmpty();
            assertThat(record.getLexicalHits()).as(filter.toString()).isEmpty();
            assertThat(deadLetters.readValuesToList()).isEmpty();
        }
        assertStillServing("r26ok");
    }

    @Test
    void anUnknownOrIllegalReplyTopicGetsItsErrorOnTheDefaultReplyTopic() {
        fixture.produce("conv-27", bytes(request("r27", "hypothyroidism").build()), "chartstream.replies.nobody", "corr-27");
        fixture.awaitIdle();
        assertRejected(defaultReplies, "r27", "header 'reply-to' names topic 'chartstream.replies.nobody', which does not exist");
        assertThat(replies.readValuesToList()).isEmpty();
        assertStillServing("r27ok");

        fixture.produce("conv-28", bytes(request("r28", "hypothyroidism").build()), "replies for me!", null);
        fixture.awaitIdle();
        assertRejected(defaultReplies, "r28", "header 'reply-to' is not a legal topic name (letters, digits, '.', '_', '-'; at most 249)");
        assertStillServing("r28ok");
    }

    @Test
    void unreadableBytesWithoutHeadersGetTheirErrorOnTheDefaultReplyTopicKeyedUnknown() {
        fixture.produce(null, new byte[] {(byte) 0xC3, 0x01, 7}, null, null);
        fixture.awaitIdle();
        assertRejected(defaultReplies, "unknown", "the message is not a QueryRequest (expected Avro single-object encoding)");
        assertStillServing("r29ok");
    }

    @Test
    void aDeadlineAlreadyPastGetsATimeoutAndNoAnswer() {
        post("conv-30", bytes(request("r30", "hypothyroidism").setDeadlineMs(System.currentTimeMillis() - 1_000).build()), "corr-30");
        List<ReplyEvent> events = replies.readValuesToList();
        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.TIMEOUT);
        assertThat(events.get(0).getError()).startsWith("field 'deadline_ms' was already past");
        assertThat(audit.readValue().getOutcome()).isEqualTo(ReplyType.TIMEOUT);
        assertThat(deadLetters.readValuesToList()).as("a late request is not bad input").isEmpty();
        assertStillServing("r30ok");
    }

    @Test
    void aDeadlineThatPassesWhileTheRequestWaitsForAWorkerGetsATimeoutAndTheLateAnswerIsNeverSent() throws Exception {
        CountDownLatch release = fixture.holdWorkers();
        fixture.produce("conv-31", bytes(request("r31", "hypothyroidism").setDeadlineMs(System.currentTimeMillis() + 300).build()),
                REPLY_TOPIC, null);
        Thread.sleep(400);
        fixture.advance();
        assertThat(replies.readValuesToList()).as("the timeout comes while the worker is still busy")
                .extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.TIMEOUT);
        release.countDown();
        fixture.awaitIdle();
        assertThat(replies.readValuesToList()).as("nothing after the timeout").isEmpty();
        assertThat(audit.readValuesToList()).extracting(AnswerAudit::getOutcome).containsExactly(ReplyType.TIMEOUT);
        assertStillServing("r31ok");
    }

    @Test
    void thePipelinesOwnTopicsAreRefusedEvenWhenAllowListedAndNothingIsWrittenThere() {
        for (String topic : List.of(Topics.INDEX, Topics.REQUESTS, "query-test-pending-requests-changelog", "ehr.public.patients")) {
            String id = "r32-" + topic;
            fixture.produce("conv-32", bytes(request(id, "hypothyroidism").build()), topic, null);
            fixture.awaitIdle();
            assertRejected(defaultReplies, id, "header 'reply-to' names '" + topic + "', a topic of the pipeline itself (index log, requests,"
                    + " audit, dead letter, status, control, Kafka Streams, Debezium or Kafka internal topics): replies never go there");
        }
        fixture.produce("conv-32", bytes(request("r32-elsewhere", "hypothyroidism").build()), "elsewhere.replies", null);
        fixture.awaitIdle();
        assertRejected(defaultReplies, "r32-elsewhere", "header 'reply-to' names topic 'elsewhere.replies', which is not an allowed reply"
                + " topic (query.reply-topics: chartstream.replies, chartstream.replies.*, chartstream.index, chartstream.requests, query-test-*, ehr.*)");
        assertThat(requestTopic.isEmpty()).isTrue();
        assertThat(indexTopic.isEmpty()).isTrue();
        assertStillServing("r32ok");
    }

    @Test
    void repliesCarryTheCorrelationIdButNoRoutingHeader() {
        post("conv-33", bytes(request("r33", "hypothyroidism").build()), "corr-33");
        List<TestRecord<String, ReplyEvent>> events = replies.readRecordsToList();
        assertThat(events).hasSize(3).allSatisfy(e -> {
            assertThat(e.headers().lastHeader(Topics.HEADER_REPLY_TO)).isNull();
            assertThat(new String(e.headers().lastHeader(Topics.HEADER_CORRELATION_ID).value(), StandardCharsets.UTF_8)).isEqualTo("corr-33");
        });
        audit.readValuesToList();
    }

    @Test
    void aRepeatedRequestIdGetsTheOriginalOutcomeAgainAndOtherContentUnderItIsAnError() {
        post("conv-34", bytes(request("r34", "Which patient takes metformin?").build()), "corr-34");
        List<ReplyEvent> first = replies.readValuesToList();
        assertThat(first).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
        assertThat(audit.readValuesToList()).hasSize(1);

        post("conv-34", bytes(request("r34", "Which patient takes metformin?").setDeadlineMs(System.currentTimeMillis() + 60_000)
                .build()), "corr-34-retry");
        List<ReplyEvent> again = replies.readValuesToList();
        assertThat(again).as("only the final reply, not a second run").extracting(ReplyEvent::getType).containsExactly(ReplyType.ANSWER);
        assertThat(again.get(0).getText()).isEqualTo(first.get(2).getText());
        assertThat(again.get(0).getCitations()).isEqualTo(first.get(2).getCitations());
        assertThat(again.get(0).getSeq()).isEqualTo(first.get(2).getSeq());
        assertThat(again.get(0).getCorrelationId()).isEqualTo("corr-34-retry");
        assertThat(audit.readValuesToList()).as("no second audit record under the id").isEmpty();
        assertThat(deadLetters.readValuesToList()).isEmpty();

        post("conv-34", bytes(request("r34", "Which patient has hypothyroidism?").build()), "corr-34-other");
        List<TestRecord<String, ReplyEvent>> conflict = replies.readRecordsToList();
        assertThat(conflict).hasSize(1);
        assertThat(conflict.get(0).key()).isEqualTo("r34");
        assertThat(conflict.get(0).value().getType()).isEqualTo(ReplyType.ERROR);
        assertThat(conflict.get(0).value().getError()).isEqualTo("duplicate request id: 'r34' was taken within the last 24 h by a request"
                + " with different content; send a new request id");
        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getStage()).isEqualTo("query.validate");
        assertThat(dead.get(0).getReason()).isEqualTo(conflict.get(0).value().getError());
        assertThat(audit.readValuesToList()).as("the audit trail under r34 stays the first request's").isEmpty();
        assertStillServing("r34ok");
    }

    @Test
    void aRepeatWhileTheFirstIsStillRunningGetsTheOneAnswerOnItsOwnReplyTopic() {
        CountDownLatch release = fixture.holdWorkers();
        fixture.produce("conv-35", bytes(request("r35", "hypothyroidism").build()), REPLY_TOPIC, null);
        fixture.produce("conv-35", bytes(request("r35", "hypothyroidism").build()), REPLY_TOPIC, null);
        fixture.produce("conv-35", bytes(request("r35", "hypothyroidism").build()), RETRY_TOPIC, "corr-35-retry");
        release.countDown();
        fixture.awaitIdle();
        assertThat(replies.readValuesToList()).extracting(ReplyEvent::getType)
                .containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
        List<ReplyEvent> onRetryTopic = retryReplies.readValuesToList();
        assertThat(onRetryTopic).extracting(ReplyEvent::getType).containsExactly(ReplyType.ANSWER);
        assertThat(onRetryTopic.get(0).getCorrelationId()).isEqualTo("corr-35-retry");
        assertThat(audit.readValuesToList()).hasSize(1);
        assertThat(deadLetters.readValuesToList()).isEmpty();
    }
}
