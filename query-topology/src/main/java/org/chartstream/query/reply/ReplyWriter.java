package org.chartstream.query.reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.query.WireSetResult;
import org.chartstream.query.request.RequestFingerprint;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.ReplyAddress;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.chartstream.schemas.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reply events of every request, one method per kind, each keyed by the request id and sent at once through the
 * {@link ReplySender} to the reply topic the request asked for. Replies given before or instead of admission
 * ({@code accepted}, {@code busy}, a rejection's {@code error}, a {@code timeout} on arrival) are seq 0; an admitted
 * request's later replies count up from its pending entry's next seq, until {@link #forget}, so a re-run after a
 * restart sends the same seqs again. An admitted request's bookkeeping starts with {@link #accepted} (its pending
 * entry, its request id taken) and ends with its final reply ({@link #outcome}, {@link #error}, {@link #timeout}),
 * which also goes to the addresses of repeats that arrived meanwhile and is recorded as the request id's outcome. The
 * pending entry is dropped, and the caller's own bookkeeping runs, only once the broker has every copy of the final
 * reply ({@link #settle}): a crash before that leaves the request pending, and the restart answers it again. Stream
 * thread only, except the sender's delivery callbacks, which only queue work for {@link #settle}.
 */
public final class ReplyWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ReplyWriter.class);

    private final ReplySender sender;
    private final KeyValueStore<String, PendingRequest> pending;
    private final KeyValueStore<String, RequestIdEntry> requestIds;
    private final Map<String, Integer> nextSeq = new HashMap<>();
    /** Work that waited for a delivery (or a failed send to retry), queued by the sender's thread. */
    private final ConcurrentLinkedQueue<Runnable> delivered = new ConcurrentLinkedQueue<>();

    public ReplyWriter(ReplySender sender, KeyValueStore<String, PendingRequest> pending, KeyValueStore<String, RequestIdEntry> requestIds) {
        this.sender = sender;
        this.pending = pending;
        this.requestIds = requestIds;
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
        sendFinal(to.getReplyTo(), event(requestId, to.getCorrelationId(), 0, ReplyType.BUSY)
                .setError("busy: " + limit + " requests are in flight; retry later").build());
    }

    /** Not admitted: the request's deadline had passed when it arrived. */
    public void lateOnArrival(String requestId, ReplyAddress to) {
        sendFinal(to.getReplyTo(), event(requestId, to.getCorrelationId(), 0, ReplyType.TIMEOUT)
                .setError("field 'deadline_ms' was already past when the request arrived; no answer was computed").build());
    }

    /** Not admitted: what is wrong with the request. */
    public void rejected(String key, ReplyAddress to, String problem) {
        sendFinal(to.getReplyTo(), event(key, to.getCorrelationId(), 0, ReplyType.ERROR).setError(problem).build());
    }

    /** A repeat of an answered request: the recorded final reply again, under the repeat's correlation id; says its type. */
    public ReplyType again(RequestIdEntry taken, ReplyAddress to, long nowMs) {
        ReplyEvent original = ReplyEvent.newBuilder(taken.getOutcome()).setCorrelationId(to.getCorrelationId()).setTsMs(nowMs).build();
        sendFinal(to.getReplyTo(), original);
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

    /**
     * The final reply of a pipeline run: answer, refused or unavailable, with its citations.
     *
     * @param afterDelivery the caller's bookkeeping of the answer, run by {@link #settle} once the broker has the reply
     */
    public void outcome(PendingRequest p, QueryPipeline.Result result, Runnable afterDelivery) {
        Answer answer = result.answer();
        finish(p, event(p, RetrievalTypes.replyType(answer.outcome())).setText(answer.text())
                .setCitations(RetrievalTypes.citations(answer.passages())).setExtractive(answer.extractive())
                .setFlaggedCitations(answer.flaggedCitations())
                .setCompleteness(RetrievalTypes.completeness(answer.completeness()))
                .setCompletenessReason(answer.completeness().map(Completeness::reason).orElse(null))
                .setCohort(RetrievalTypes.cohort(answer.completeness()))
                .setSetResult(WireSetResult.of(answer.set()))
                .setCandidates(RetrievalTypes.candidates(result.scope())).build(), afterDelivery);
    }

    /** The final reply of a run that failed; {@code afterDelivery} as for {@link #outcome}. */
    public void error(PendingRequest p, String reason, Runnable afterDelivery) {
        finish(p, event(p, ReplyType.ERROR).setError(reason).build(), afterDelivery);
    }

    /** The final reply of a request whose deadline passed before it was answered; {@code afterDelivery} as for {@link #outcome}. */
    public void timeout(PendingRequest p, Runnable afterDelivery) {
        finish(p, event(p, ReplyType.TIMEOUT)
                .setError("field 'deadline_ms' passed before the request could be answered; no answer follows").build(), afterDelivery);
    }

    /** Drops the request's sequence numbers: its worker is done, or it never started. */
    public void forget(String requestId) {
        nextSeq.remove(requestId);
    }

    /**
     * Runs what waited for the delivery of final replies (dropping their pending entries, then the callers'
     * bookkeeping) and sends again what the broker did not take. Stream thread, from the delivery punctuation.
     */
    public void settle() {
        Runnable r;
        while ((r = delivered.poll()) != null) {
            r.run();
        }
    }

    private void finish(PendingRequest p, ReplyEvent terminal, Runnable afterDelivery) {
        String id = terminal.getRequestId();
        RequestIdEntry taken = requestIds.get(id);
        if (taken == null) { // pending from before request ids were remembered
            taken = RequestIdEntry.newBuilder().setFingerprint(RequestFingerprint.of(p.getRequest()))
                    .setFirstSeenMs(p.getReceivedTsMs()).build();
        }
        List<ReplyAddress> copies = new ArrayList<>();
        copies.add(new ReplyAddress(p.getReplyTo(), terminal.getCorrelationId()));
        copies.addAll(taken.getRetries());
        // recorded now: a repeat from here on gets this reply again instead of waiting for a run that is over
        requestIds.put(id, RequestIdEntry.newBuilder(taken).setOutcome(terminal).setRetries(List.of()).build());
        AtomicInteger undelivered = new AtomicInteger(copies.size());
        Runnable settle = () -> {
            pending.delete(id);
            afterDelivery.run();
        };
        for (ReplyAddress to : copies) {
            deliver(to.getReplyTo(), ReplyEvent.newBuilder(terminal).setCorrelationId(to.getCorrelationId()).build(), () -> {
                if (undelivered.decrementAndGet() == 0) {
                    delivered.add(settle);
                }
            });
        }
    }

    /** Sends a final reply; once the broker has it, {@code onDelivery} runs; a failed send is sent again at the next settle. */
    private void deliver(String topic, ReplyEvent event, Runnable onDelivery) {
        sender.send(topic, event, headers(event), failure -> {
            if (failure == null) {
                onDelivery.run();
            } else {
                LOG.warn("final reply of request {} not delivered ({}); sending it again", event.getRequestId(),
                        failure.getClass().getSimpleName());
                delivered.add(() -> deliver(topic, event, onDelivery));
            }
        });
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

    /** A final reply that ends no bookkeeping (busy, a rejection, a repeat's answer): sent again until the broker has it. */
    private void sendFinal(String topic, ReplyEvent event) {
        deliver(topic, event, () -> { });
    }

    /** A reply that is not final: a lost one costs the client a preview, never the answer, so a failure is only logged. */
    private void send(String topic, ReplyEvent event) {
        sender.send(topic, event, headers(event), failure -> {
            if (failure != null) {
                LOG.warn("{} reply of request {} not delivered ({})", event.getType(), event.getRequestId(), failure.getClass().getSimpleName());
            }
        });
    }

    /**
     * Replies carry the correlation id as a header and nothing that routes: a {@code reply-to} copied onto a reply
     * would send whatever reads it as a request somewhere again.
     */
    private static Headers headers(ReplyEvent event) {
        Headers headers = new RecordHeaders();
        if (event.getCorrelationId() != null) {
            headers.add(Topics.HEADER_CORRELATION_ID, event.getCorrelationId().getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }
}
