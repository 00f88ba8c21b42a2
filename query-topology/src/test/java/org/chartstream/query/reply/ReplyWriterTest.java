package org.chartstream.query.reply;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyAddress;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.chartstream.schemas.SetOutput;
import org.chartstream.schemas.SetValue;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReplyWriterTest {
    private static final String TOPIC = "chartstream.replies.test";
    private static final String RETRY_TOPIC = "chartstream.replies.retry";

    private MockProcessorContext<String, Object> context;
    private KeyValueStore<String, PendingRequest> pending;
    private KeyValueStore<String, RequestIdEntry> requestIds;
    private RecordingReplySender sender;
    private ReplyWriter writer;

    @BeforeEach
    void writer() {
        context = new MockProcessorContext<>();
        pending = store("pending", AvroSerde.of(PendingRequest.class));
        requestIds = store("request-ids", AvroSerde.of(RequestIdEntry.class));
        sender = new RecordingReplySender();
        writer = new ReplyWriter(sender, pending, requestIds);
    }

    private <V extends SpecificRecord> KeyValueStore<String, V> store(String name, AvroSerde<V> serde) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), serde)
                .withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    private static PendingRequest request(String id) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("u")
                .setQuestion("which patient takes metformin?").setTopK(3).build();
        return PendingRequest.newBuilder().setRequest(r).setReplyTo(TOPIC).setCorrelationId("corr-" + id)
                .setReceivedTsMs(1_000).setNextSeq(1).build();
    }

    /** Every reply sent so far, with the topic it goes to; clears them. */
    private List<RecordingReplySender.Sent> sent() {
        return sender.takeAll();
    }

    @Test
    void anAdmittedRequestsRepliesCountUpFromAcceptedKeyedByItsIdWithOnlyTheCorrelationIdHeader() {
        PendingRequest p = request("r1");
        writer.accepted(p, "fingerprint-1");
        Passage passage = new Passage(1, ChunkFixture.of("ehr", "medications", "m1").build(), 0.9, "metformin");
        writer.citations(p, List.of(passage));
        writer.token(p, "Martha ");
        writer.token(p, "Collins");
        writer.error(p, "internal error", () -> { });

        assertThat(sender.topic(TOPIC).readRecordsToList()).hasSize(5).allSatisfy(r -> {
            assertThat(r.key()).isEqualTo("r1");
            assertThat(r.headers().toArray()).hasSize(1);
            assertThat(new String(r.headers().lastHeader(Topics.HEADER_CORRELATION_ID).value(), StandardCharsets.UTF_8))
                    .isEqualTo("corr-r1");
        });
        List<RecordingReplySender.Sent> replies = sent();
        assertThat(replies).extracting(RecordingReplySender.Sent::topic).containsOnly(TOPIC);
        assertThat(replies).extracting(a -> a.event().getType())
                .containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.TOKEN, ReplyType.TOKEN, ReplyType.ERROR);
        assertThat(replies).extracting(a -> a.event().getSeq()).containsExactly(0, 1, 2, 3, 4);
        assertThat(replies.get(1).event().getCitations().get(0).getChunkId()).isEqualTo("ehr:medications:m1:0:1");
        assertThat(replies.get(2).event().getText()).isEqualTo("Martha ");
        assertThat(replies.get(4).event().getError()).isEqualTo("internal error");
    }

    @Test
    void acceptedRecordsTheRequestAsPendingAndTakesItsIdAndTheFinalReplyEndsBothOnceSettled() {
        PendingRequest p = request("r2");
        writer.accepted(p, "fingerprint-2");
        assertThat(pending.get("r2")).isEqualTo(p);
        assertThat(requestIds.get("r2").getFingerprint()).isEqualTo("fingerprint-2");
        assertThat(requestIds.get("r2").getFirstSeenMs()).isEqualTo(1_000);
        assertThat(requestIds.get("r2").getOutcome()).isNull();
        List<String> bookkeeping = new ArrayList<>();

        writer.timeout(p, () -> bookkeeping.add("audit"));

        ReplyEvent timeout = sent().get(1).event();
        assertThat(timeout.getType()).isEqualTo(ReplyType.TIMEOUT);
        assertThat(timeout.getSeq()).isEqualTo(1);
        assertThat(requestIds.get("r2").getOutcome()).as("a repeat from now on gets this reply").isEqualTo(timeout);
        assertThat(requestIds.get("r2").getFingerprint()).isEqualTo("fingerprint-2");
        assertThat(pending.get("r2")).as("pending until settled on the stream thread").isEqualTo(p);
        assertThat(bookkeeping).isEmpty();

        writer.settle();

        assertThat(pending.get("r2")).isNull();
        assertThat(bookkeeping).containsExactly("audit");
        writer.settle();
        assertThat(bookkeeping).as("once").containsExactly("audit");
    }

    @Test
    void theFinalReplysBookkeepingWaitsUntilTheBrokerHasItSoACrashBeforeThatLeavesTheRequestPending() {
        PendingRequest p = request("r8");
        writer.accepted(p, "fingerprint-8");
        sender.holdAcknowledgements();
        List<String> bookkeeping = new ArrayList<>();

        writer.error(p, "internal error", () -> bookkeeping.add("memory, audit, admission"));
        writer.settle();

        assertThat(sent()).extracting(s -> s.event().getType()).containsExactly(ReplyType.ACCEPTED, ReplyType.ERROR);
        assertThat(pending.get("r8")).as("not yet on the broker: a restart re-runs it").isEqualTo(p);
        assertThat(bookkeeping).isEmpty();

        sender.acknowledgeHeld();
        writer.settle();

        assertThat(pending.get("r8")).isNull();
        assertThat(bookkeeping).containsExactly("memory, audit, admission");
    }

    @Test
    void aFinalReplyTheBrokerDidNotTakeIsSentAgainAtTheNextSettleAndOnlyThenSettles() {
        PendingRequest p = request("r9");
        writer.accepted(p, "fingerprint-9");
        sent();
        sender.failNext(1);
        List<String> bookkeeping = new ArrayList<>();

        writer.error(p, "internal error", () -> bookkeeping.add("done"));

        assertThat(sent()).as("the failed send reached no topic").isEmpty();
        assertThat(pending.get("r9")).isEqualTo(p);
        assertThat(bookkeeping).isEmpty();
        writer.settle(); // sends it again; acknowledged at once, so it settles too
        assertThat(sent()).extracting(s -> s.event().getType()).containsExactly(ReplyType.ERROR);
        assertThat(pending.get("r9")).isNull();
        assertThat(bookkeeping).containsExactly("done");
    }

    @Test
    void theFinalReplyAlsoGoesToRepeatsThatAskedForAnotherTopicUnderTheirCorrelationIds() {
        PendingRequest p = request("r3");
        writer.accepted(p, "fingerprint-3");
        writer.alsoTo("r3", requestIds.get("r3"), new ReplyAddress(TOPIC, "corr-same-topic"));
        writer.alsoTo("r3", requestIds.get("r3"), new ReplyAddress(RETRY_TOPIC, "corr-retry"));
        writer.alsoTo("r3", requestIds.get("r3"), new ReplyAddress(RETRY_TOPIC, "corr-retry"));
        assertThat(requestIds.get("r3").getRetries()).containsExactly(new ReplyAddress(RETRY_TOPIC, "corr-retry"));
        sent();

        writer.error(p, "internal error", () -> { });

        List<RecordingReplySender.Sent> finals = sent();
        assertThat(finals).extracting(RecordingReplySender.Sent::topic).containsExactly(TOPIC, RETRY_TOPIC);
        assertThat(finals).extracting(a -> a.event().getCorrelationId()).containsExactly("corr-r3", "corr-retry");
        assertThat(finals).extracting(a -> a.event().getSeq()).containsOnly(1);
        assertThat(requestIds.get("r3").getRetries()).isEmpty();
    }

    @Test
    void aRepeatOfAnAnsweredRequestGetsTheRecordedFinalReplyOnItsOwnAddress() {
        PendingRequest p = request("r4");
        writer.accepted(p, "fingerprint-4");
        writer.error(p, "internal error", () -> { });
        ReplyEvent recorded = requestIds.get("r4").getOutcome();
        sent();

        assertThat(writer.again(requestIds.get("r4"), new ReplyAddress(RETRY_TOPIC, "corr-again"), 5_000)).isEqualTo(ReplyType.ERROR);

        RecordingReplySender.Sent again = sent().get(0);
        assertThat(again.topic()).isEqualTo(RETRY_TOPIC);
        assertThat(again.event()).isEqualTo(ReplyEvent.newBuilder(recorded).setCorrelationId("corr-again").setTsMs(5_000).build());
    }

    @Test
    void repliesBeforeAdmissionAreSeqZeroAndTakeNoRequestId() {
        ReplyAddress to = new ReplyAddress(TOPIC, null);
        writer.busy("r5", to, 4);
        writer.lateOnArrival("r6", to);
        writer.rejected("r7", to, "field 'question' is empty");

        assertThat(sender.topic(TOPIC).readRecordsToList()).hasSize(3)
                .allSatisfy(r -> assertThat(r.headers().toArray()).as("no correlation id, no header").isEmpty());
        List<RecordingReplySender.Sent> replies = sent();
        assertThat(replies).extracting(a -> a.event().getType()).containsExactly(ReplyType.BUSY, ReplyType.TIMEOUT, ReplyType.ERROR);
        assertThat(replies).extracting(a -> a.event().getSeq()).containsOnly(0);
        assertThat(replies.get(0).event().getError()).isEqualTo("busy: 4 requests are in flight; retry later");
        assertThat(replies.get(2).event().getError()).isEqualTo("field 'question' is empty");
        assertThat(requestIds.approximateNumEntries()).isZero();
        assertThat(pending.approximateNumEntries()).isZero();
    }

    @Test
    void aWholeSetAnswerCarriesItsStructuredResultAsFieldsAndARepeatGetsItAgain() {
        PendingRequest p = request("r10");
        writer.accepted(p, "fingerprint-10");
        SetResult set = new SetResult(SetResult.Output.VALUES, "route", 21, 17, List.of(), List.of("p1", "p2"),
                List.of(new SetResult.Value("PO", 20, 16), new SetResult.Value("IV", 1, 1)),
                List.of("ehr:medications:m1", "ehr:medications:m2"), List.of("amoxicillin"), true);

        writer.outcome(p, result(Optional.of(set)), () -> { });

        ReplyEvent answer = sent().get(1).event();
        org.chartstream.schemas.SetResult wire = answer.getSetResult();
        assertThat(wire.getOutput()).isEqualTo(SetOutput.VALUES);
        assertThat(wire.getField()).isEqualTo("route");
        assertThat(wire.getRows()).isEqualTo(21);
        assertThat(wire.getPatients()).isEqualTo(17);
        assertThat(wire.getValues()).containsExactly(new SetValue("PO", 20L, 16L), new SetValue("IV", 1L, 1L));
        assertThat(wire.getRowIds()).containsExactly("ehr:medications:m1", "ehr:medications:m2");
        assertThat(wire.getConcepts()).containsExactly("amoxicillin");
        assertThat(wire.getPatientsListed()).isEmpty();
        assertThat(wire.getComplete()).isTrue();
        assertThat(wire.getListsCut()).isFalse();
        assertThat(requestIds.get("r10").getOutcome().getSetResult()).as("what a repeat gets").isEqualTo(wire);
    }

    @Test
    void anOrdinaryAnswerCarriesNoSetResult() {
        PendingRequest p = request("r11");
        writer.accepted(p, "fingerprint-11");

        writer.outcome(p, result(Optional.empty()), () -> { });

        ReplyEvent answer = sent().get(1).event();
        assertThat(answer.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCompleteness()).isNotNull();
        assertThat(answer.getSetResult()).isNull();
    }

    /** An extractive answer citing one row, with {@code set} as its whole-set result. */
    private static QueryPipeline.Result result(Optional<SetResult> set) {
        StoredChunk row = ChunkFixture.of("ehr", "medications", "m1").patient("p1").build();
        Answer answer = new Answer(Outcome.ANSWER, "21 orders of amoxicillin", true, List.of(new Passage(1, row, 1.0, row.text())),
                RetrievalTrace.Cohort.LOOKUP, List.of(), Optional.of(Completeness.MOST_RELEVANT), set);
        return new QueryPipeline.Result(answer, new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor"),
                PatientScope.NONE, Map.of("total", 3L));
    }
}
