package org.chartstream.query.reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.query.request.RequestFingerprint;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.ReplyAddress;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * The reply events of every request, one method per kind, each keyed by the request id and sent to the reply topic
 * the request asked for. Replies given before or instead of admission ({@code accepted}, {@code busy}, a rejection's
 * {@code error}, a {@code timeout} on arrival) are seq 0; an admitted request's later replies count up from its pending
 * entry's next seq, until {@link #forget}. An admitted request's bookkeeping starts with {@link #accepted} (its pending
 * entry, its request id taken) and ends with its final reply ({@link #outcome}, {@link #error}, {@link #timeout}),
 * which also goes to the addresses of repeats that arrived meanwhile, is recorded as the request id's outcome and
 * drops the pending entry: all in the Streams transaction that sends it. Stream thread only.
 */
public final class ReplyWriter {
    private static final String SINK = "replies";

    private final ProcessorContext<String, Object> context;
    private final KeyValueStore<String, PendingRequest> pending;
    private final KeyValueStore<String, RequestIdEntry> requestIds;
    private final Map<String, Integer> nextSeq = new HashMap<>();

    /** A reply event and the topic it goes to: the destination travels with the value, never as a record header. */
    record AddressedReply(String topic, ReplyEvent event) {
    }

    public ReplyWriter(ProcessorContext<String, Object> context, KeyValueStore<String, PendingRequest> pending,
                       KeyValueStore<String, RequestIdEntry> requestIds) {
        this.context = context;
        this.pending = pending;
        this.requestIds = requestIds;
    }

    /** The sink that writes each reply the writers of {@code parent} send to the topic the reply carries. */
    public static void addSink(Topology topology, String parent) {
        AvroSerde<ReplyEvent> replies = AvroSerde.of(ReplyEvent.class);
        Serializer<AddressedReply> reply = (topic, addressed) -> replies.serialize(topic, addressed.event());
        topology.addSink(SINK, (key, addressed, ctx) -> addressed.topic(), new StringSerializer(), reply, parent);
    }

    /** Admitted: the request is pending (a restart answers it) and its id taken, with the request's fingerprint. */
    public void accepted(PendingRequest p, String fingerprint) {
        String id = p.getRequest().getRequestId();
        send(p.getReplyTo(), event(id, p.getCorrelationId(), 0, ReplyType.ACCEPTED).build());
        pending.put(id, p);
        requestIds.put(id, RequestIdEntry.newBuilder().setFingerprint(fingerprint).setFirstSeenMs(p.getReceivedTsMs())
                .setOutcome(null).build());
    }

    /** Not admitted: {@code limit} requests are in flight. */
    public void busy(String requestId, ReplyAddress to, int limit) {
        send(to.getReplyTo(), event(requestId, to.getCorrelationId(), 0, ReplyType.BUSY)
                .setError("busy: " + limit + " requests are in flight; retry later").build());
    }

    /** Not admitted: the request's deadline had passed when it arrived. */
    public void lateOnArrival(String requestId, ReplyAddress to) {
        send(to.getReplyTo(), event(requestId, to.getCorrelationId(), 0, ReplyType.TIMEOUT)
                .setError("field 'deadline_ms' was already past when the request arrived; no answer was computed").build());
    }

    /** Not admitted: what is wrong with the request. */
    public void rejected(String key, ReplyAddress to, String problem) {
        send(to.getReplyTo(), event(key, to.getCorrelationId(), 0, ReplyType.ERROR).setError(problem).build());
    }

    /** A repeat of an answered request: the recorded final reply again, under the repeat's correlation id; says its type. */
    public ReplyType again(RequestIdEntry taken, ReplyAddress to, long nowMs) {
        ReplyEvent original = ReplyEvent.newBuilder(taken.getOutcome()).setCorrelationId(to.getCorrelationId()).setTsMs(nowMs).build();
        send(to.getReplyTo(), original);
        return original.getType();
    }

    /** A repeat while the request is in flight: the one final reply also goes to {@code to}, unless that is where it goes anyway. */
    public void alsoTo(String requestId, RequestIdEntry taken, ReplyAddress to) {
        PendingRequest running = pending.get(requestId);
        if (running != null && running.getReplyTo().equals(to.getReplyTo())) {
            return;
        }
        List<ReplyAddress> retries = new ArrayList<>(taken.getRetries());
        if (!retries.contains(to)) {
            retries.add(to);
            requestIds.put(requestId, RequestIdEntry.newBuilder(taken).setRetries(retries).build());
        }
    }

    public void citations(PendingRequest p, List<Passage> passages) {
        send(p.getReplyTo(), event(p, ReplyType.CITATIONS).setCitations(RetrievalTypes.citations(passages)).build());
    }

    public void token(PendingRequest p, String token) {
        send(p.getReplyTo(), event(p, ReplyType.TOKEN).setText(token).build());
    }

    /** The final reply of a pipeline run: answer, refused or unavailable, with its citations. */
    public void outcome(PendingRequest p, QueryPipeline.Result result) {
        finish(p, event(p, RetrievalTypes.replyType(result.outcome())).setText(result.answer())
                .setCitations(RetrievalTypes.citations(result.passages())).setExtractive(result.extractive())
                .setFlaggedCitations(result.flaggedCitations())
                .setCompleteness(RetrievalTypes.completeness(result.completeness()))
                .setCompletenessReason(result.completeness() == null ? null : result.completeness().reason())
                .setCohort(RetrievalTypes.cohort(result.completeness()))
                .setCandidates(RetrievalTypes.candidates(result.scope())).build());
    }

    /** The final reply of a run that failed. */
    public void error(PendingRequest p, String reason) {
        finish(p, event(p, ReplyType.ERROR).setError(reason).build());
    }

    /** The final reply of a request whose deadline passed before it was answered. */
    public void timeout(PendingRequest p) {
        finish(p, event(p, ReplyType.TIMEOUT)
                .setError("field 'deadline_ms' passed before the request could be answered; no answer follows").build());
    }

    /** Drops the request's sequence numbers: its worker is done, or it never started. */
    public void forget(String requestId) {
        nextSeq.remove(requestId);
    }

    private void finish(PendingRequest p, ReplyEvent terminal) {
        String id = terminal.getRequestId();
        send(p.getReplyTo(), terminal);
        RequestIdEntry taken = requestIds.get(id);
        if (taken == null) { // pending from before request ids were remembered
            taken = RequestIdEntry.newBuilder().setFingerprint(RequestFingerprint.of(p.getRequest()))
                    .setFirstSeenMs(p.getReceivedTsMs()).build();
        }
        for (ReplyAddress retry : taken.getRetries()) {
            send(retry.getReplyTo(), ReplyEvent.newBuilder(terminal).setCorrelationId(retry.getCorrelationId()).build());
        }
        requestIds.put(id, RequestIdEntry.newBuilder(taken).setOutcome(terminal).setRetries(List.of()).build());
        pending.delete(id);
    }

    /** The next event of an admitted request. */
    private ReplyEvent.Builder event(PendingRequest p, ReplyType type) {
        String id = p.getRequest().getRequestId();
        int seq = nextSeq.getOrDefault(id, p.getNextSeq());
        nextSeq.put(id, seq + 1);
        return event(id, p.getCorrelationId(), seq, type);
    }

    private static ReplyEvent.Builder event(String requestId, String correlationId, int seq, ReplyType type) {
        return ReplyEvent.newBuilder().setRequestId(requestId).setCorrelationId(correlationId).setSeq(seq).setType(type)
                .setText(null).setCitations(List.of()).setExtractive(false).setError(null).setFlaggedCitations(List.of())
                .setTsMs(System.currentTimeMillis());
    }

    /**
     * Replies carry the correlation id as a header and nothing that routes: a {@code reply-to} copied onto a reply
     * would send whatever reads it as a request somewhere again.
     */
    private void send(String topic, ReplyEvent event) {
        Headers headers = new RecordHeaders();
        if (event.getCorrelationId() != null) {
            headers.add(Topics.HEADER_CORRELATION_ID, event.getCorrelationId().getBytes(StandardCharsets.UTF_8));
        }
        context.forward(new Record<String, Object>(event.getRequestId(), new AddressedReply(topic, event),
                System.currentTimeMillis(), headers), SINK);
    }
}
