package org.chartstream.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.audit.AuditRecords;
import org.chartstream.query.catchup.CatchUpGate;
import org.chartstream.query.memory.ConversationMemories;
import org.chartstream.query.memory.RememberedPatients;
import org.chartstream.query.pending.PendingRequests;
import org.chartstream.query.reply.ReplySender;
import org.chartstream.query.reply.ReplyWriter;
import org.chartstream.query.request.IncomingRequest;
import org.chartstream.query.request.ReplyTopics;
import org.chartstream.query.request.RequestCheck;
import org.chartstream.query.request.RequestDeadLetter;
import org.chartstream.query.request.RequestFingerprint;
import org.chartstream.query.request.RequestIds;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.query.request.RequestReader;
import org.chartstream.query.run.Emission;
import org.chartstream.query.run.PipelineRuns;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thin wiring around {@link QueryPipeline}. On the stream thread: read and validate ({@link RequestReader}), admit
 * (or answer {@code busy} at once), reply {@code accepted} and record the request as pending in a changelogged store
 * ({@link ReplyWriter}). On worker threads: run the pipeline ({@link PipelineRuns}). Back on the stream thread (a
 * punctuation at every pass of its loop): send the reply events at once, outside the transaction ({@link ReplySender});
 * once the broker has the final one, write the audit record, update the conversation memory and drop the pending
 * entry, in one Streams transaction. A restart re-runs whatever was still pending, so no admitted request goes
 * unanswered (its replies may then come twice, with the same request id and seq). Turns of one conversation run one
 * after another, in arrival order ({@link PendingRequests}). A task that has just started (on a new instance, or one
 * that took over the partition of an instance that died) runs nothing until the store replica has caught up with the
 * index log as of its start ({@link CatchUpGate}), so it answers as the instance before it would have. Logs carry ids
 * and timings only.
 *
 * <p>One answer per request id: an admitted id is remembered (changelogged store, for the request-id window) with
 * the request's fingerprint and, once answered, its final reply. A repeat with the same content gets that final reply
 * again (or, while the first is still running, the one answer when it comes); one with other content gets an error
 * and a dead letter. A request past its deadline, at arrival, between stages, or with its answer ready, gets a
 * {@code timeout} reply and no answer. Replies carry no routing header: their topic travels with the value.
 */
final class QueryProcessor implements Processor<String, byte[], String, Object> {
    static final String PENDING_STORE = "pending-requests";
    static final String MEMORY_STORE = "conversation-memory";
    static final String REQUEST_ID_STORE = "request-ids";
    private static final Duration EXPIRY_SCAN = Duration.ofMinutes(1);
    /**
     * Finished runs are picked up at every pass of the stream thread's loop (a wall-clock punctuation is checked once
     * per pass); how often the loop passes while no request arrives is the consumer's poll timeout, {@code poll.ms}.
     */
    private static final Duration DELIVERY_PASS = Duration.ofMillis(1);
    private static final Logger LOG = LoggerFactory.getLogger(QueryProcessor.class);

    private final QueryServing serving;
    private final QueryPipeline pipeline;
    private final RequestIntegrity integrity;
    private final AdmissionControl admission;
    private final PipelineRuns runs;
    private final Function<Map<String, Object>, ReplyTopics> replyTopicsFactory;
    private final Function<Map<String, Object>, ReplySender> replySenderFactory;
    private ReplyTopics replyTopics;
    private ReplySender replySender;
    private ProcessorContext<String, Object> context;
    private RequestReader reader;
    private ReplyWriter replies;
    private PendingRequests pending;
    private CatchUpGate gate;
    private KeyValueStore<String, ConversationMemory> memories;
    private KeyValueStore<String, RequestIdEntry> requestIds;

    QueryProcessor(QueryServing serving, Function<Map<String, Object>, ReplyTopics> replyTopicsFactory,
                   Function<Map<String, Object>, ReplySender> replySenderFactory) {
        this.serving = serving;
        this.replyTopicsFactory = replyTopicsFactory;
        this.replySenderFactory = replySenderFactory;
        this.pipeline = serving.pipeline();
        this.integrity = serving.integrity();
        this.admission = serving.admission();
        this.runs = new PipelineRuns(pipeline, serving.workers());
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.replyTopics = replyTopicsFactory.apply(context.appConfigs());
        this.replySender = replySenderFactory.apply(context.appConfigs());
        this.reader = new RequestReader(integrity.replyTopics(), replyTopics, serving.transport().maxQuestionChars(),
                serving.transport().maxTopK(), serving.indexedTables());
        KeyValueStore<String, PendingRequest> pendingStore = context.getStateStore(PENDING_STORE);
        this.memories = context.getStateStore(MEMORY_STORE);
        this.requestIds = context.getStateStore(REQUEST_ID_STORE);
        this.replies = new ReplyWriter(replySender, pendingStore, requestIds);
        this.gate = new CatchUpGate(serving.catchUp().sinceNow(), p -> runs.start(p, memories.get(p.getRequest().getConversationId())));
        this.pending = new PendingRequests(gate::start);
        List<PendingRequest> recovered = PendingRequests.recovered(pendingStore);
        for (PendingRequest p : recovered) {
            admission.acquirePastLimit(p.getReceivedTsMs());
            pending.enqueue(p);
        }
        if (!recovered.isEmpty()) {
            LOG.info("resuming {} requests that were pending before a restart", recovered.size());
        }
        context.schedule(DELIVERY_PASS, PunctuationType.WALL_CLOCK_TIME, now -> {
            runs.drain(this::deliver);
            replies.settle();
            startHeldRuns();
            expireDeadlines();
        });
        context.schedule(EXPIRY_SCAN, PunctuationType.WALL_CLOCK_TIME, this::forgetExpiredRequestIds);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        IncomingRequest in = reader.read(record.headers(), record.value(), memories::get);
        if (in.problem() != null) {
            reject(record, in, true);
            return;
        }
        QueryRequest request = in.request();
        String id = request.getRequestId();
        String fingerprint = RequestFingerprint.of(request);
        long now = System.currentTimeMillis();
        if (answeredAsRepeat(record, in, fingerprint, now)) {
            return;
        }
        if (RequestCheck.pastDeadline(request, now)) {
            replies.lateOnArrival(id, in.replyTo());
            audit(AuditRecords.rejected(id, request.getConversationId(), request.getUserId(), ReplyType.TIMEOUT,
                    "deadline passed before arrival", pipeline.embeddingModel()));
            LOG.info("request {} timed out before arrival", id);
            return;
        }
        int ahead = pending.turnsInFlight(request.getConversationId());
        if (admission.waitsBehind(ahead)) {
            // its busy reply would overtake the answer of the turn ahead; waiting behind it adds no parallel work
            admission.acquirePastLimit(now);
        } else if (!admission.tryAcquire(now)) {
            replies.busy(id, in.replyTo(), admission.limit());
            audit(AuditRecords.rejected(id, request.getConversationId(), request.getUserId(),
                    ReplyType.BUSY, "admission limit " + admission.limit() + " reached", pipeline.embeddingModel()));
            LOG.info("request {} busy: admission limit {} reached", id, admission.limit());
            return;
        }
        PendingRequest p = in.pending(now, context.recordMetadata().map(RecordMetadata::offset).orElse(-1L));
        replies.accepted(p, fingerprint);
        pending.enqueue(p);
    }

    /**
     * Whether the request's id was taken already (within the window), and its repeat is answered: the same content
     * gets the final reply again (or, while in flight, the one answer when it comes), other content an error.
     */
    private boolean answeredAsRepeat(Record<String, byte[]> record, IncomingRequest in, String fingerprint, long now) {
        String id = in.request().getRequestId();
        RequestIdEntry taken = requestIds.get(id);
        return switch (RequestIds.classify(taken, fingerprint, now, integrity.requestIdWindow())) {
            case CONFLICT -> {
                // no audit record: the audit trail and replays are keyed by request id and belong to the first request
                reject(record, in.withProblem(RequestIds.conflict(id, integrity.requestIdWindow())), false);
                yield true;
            }
            case REPEAT -> {
                ReplyType original = replies.again(taken, in.replyTo(), now);
                LOG.info("request {} repeated: its final reply ({}) sent again", id, original);
                yield true;
            }
            case IN_FLIGHT -> {
                replies.alsoTo(id, taken, in.replyTo());
                LOG.info("request {} repeated while in flight: it gets the one answer", id);
                yield true;
            }
            case FIRST -> false;
        };
    }

    /** Once the replica has caught up, the runs held since the task started begin (and say so once). */
    private void startHeldRuns() {
        int held = gate.held();
        if (gate.release() && held > 0) {
            LOG.info("store replica caught up with the index log: {} held requests start", held);
        }
    }

    /**
     * The task closes: its partition moved to another instance, or this one stops. The requests it admitted and did
     * not finish stay in the pending store for the next owner; their slots here are freed, and nothing more is sent
     * for them from here (whatever their workers still hand back is never drained).
     */
    @Override
    public void close() {
        if (pending != null) {
            admission.abandon(pending.unfinished().stream().map(PendingRequest::getReceivedTsMs).toList());
        }
        if (replyTopics != null) {
            replyTopics.close();
        }
        if (replySender != null) {
            replySender.close();
        }
    }

    private void deliver(Emission e) {
        if (e instanceof Emission.Completion c) {
            complete(c);
            return;
        }
        PendingRequest p = e.pending();
        if (pending.isReplied(p) || timeOutIfLate(p)) {
            return; // no citations or tokens after a timeout reply
        }
        if (e instanceof Emission.Citations c) {
            replies.citations(p, c.passages());
        } else if (e instanceof Emission.Token t) {
            replies.token(p, t.token());
        }
    }

    private void complete(Emission.Completion c) {
        PendingRequest p = c.pending();
        QueryRequest r = p.getRequest();
        long finishedMs = System.currentTimeMillis();
        if (pending.isReplied(p)) {
            LOG.info("request {} finished after its timeout reply; its result is dropped", r.getRequestId());
            done(p, finishedMs);
        } else if (c.failure() instanceof QueryPipeline.DeadlinePassedException
                || RequestCheck.pastDeadline(r, System.currentTimeMillis())) {
            timeOut(p); // the answer came too late: it is not sent
            done(p, finishedMs);
        } else if (c.failure() != null) {
            String reason = "internal error while answering (" + c.failure().getClass().getSimpleName() + "); see the service log for the request id";
            LOG.error("request {} failed: {}", r.getRequestId(), c.failure().getClass().getSimpleName());
            replies.error(p, reason, () -> {
                audit(AuditRecords.rejected(r.getRequestId(), r.getConversationId(), r.getUserId(), ReplyType.ERROR,
                        reason, pipeline.embeddingModel()));
                done(p, finishedMs);
            });
            pending.replied(p);
        } else {
            QueryPipeline.Result result = c.result();
            replies.outcome(p, result, () -> {
                audit(AuditRecords.of(r, result, pipeline.embeddingModel()));
                ConversationMemory memory = memories.get(r.getConversationId());
                memories.put(r.getConversationId(), ConversationMemories.append(
                        memory == null ? ConversationMemories.empty(r.getConversationId(), r.getUserId()) : memory,
                        r.getQuestion(), result.answer().text(), RememberedPatients.of(result),
                        System.currentTimeMillis(),
                        ConversationMemories.DEFAULT_MAX_TURNS));
                LOG.info("request {} answered: outcome={} citations={} gate={} total_ms={}{}", r.getRequestId(),
                        result.answer().outcome(), result.answer().passages().size(), result.trace().gateDescription(),
                        result.stageMs().get("total"), result.answer().set().map(s -> " " + s).orElse(""));
                if (RememberedPatients.setOverCap(result)) {
                    LOG.info("request {}: its whole set has more than {} patients; a follow-up is not scoped to it",
                            r.getRequestId(), RememberedPatients.MAX_PATIENTS);
                }
                done(p, finishedMs);
            });
            pending.replied(p);
        }
    }

    /** The request's worker is done and its answer (if any) delivered: its slot is free, the next turn may start. */
    private void done(PendingRequest p, long finishedMs) {
        replies.forget(p.getRequest().getRequestId());
        admission.release(p.getReceivedTsMs(), finishedMs);
        pending.finished(p);
    }

    /** Answers {@code timeout} when the request's deadline has passed; says whether it did. */
    private boolean timeOutIfLate(PendingRequest p) {
        if (!RequestCheck.pastDeadline(p.getRequest(), System.currentTimeMillis())) {
            return false;
        }
        timeOut(p);
        pending.replied(p);
        return true;
    }

    /** The final {@code timeout} reply; once delivered, its audit record, and the request leaves the pending store. */
    private void timeOut(PendingRequest p) {
        QueryRequest r = p.getRequest();
        replies.timeout(p, () -> audit(AuditRecords.rejected(r.getRequestId(), r.getConversationId(), r.getUserId(),
                ReplyType.TIMEOUT, "deadline passed while answering", pipeline.embeddingModel())));
        LOG.info("request {} timed out", r.getRequestId());
    }

    /**
     * Running requests past their deadline get their {@code timeout} reply now, whatever stage their worker is in;
     * waiting ones (behind an earlier turn of their conversation) are also dropped from the queue.
     */
    private void expireDeadlines() {
        long now = System.currentTimeMillis();
        for (PendingRequest p : pending.started()) {
            if (!pending.isReplied(p) && RequestCheck.pastDeadline(p.getRequest(), now)) {
                timeOutIfLate(p);
            }
        }
        pending.dropWaitingPastDeadline(now, p -> {
            timeOut(p);
            replies.forget(p.getRequest().getRequestId());
            admission.release(p.getReceivedTsMs(), now);
        });
    }

    private void forgetExpiredRequestIds(long nowMs) {
        List<String> expired = new ArrayList<>();
        try (KeyValueIterator<String, RequestIdEntry> it = requestIds.all()) {
            it.forEachRemaining(kv -> {
                if (RequestIds.expired(kv.value, nowMs, integrity.requestIdWindow())) {
                    expired.add(kv.key);
                }
            });
        }
        expired.forEach(requestIds::delete);
    }

    /**
     * An error reply naming the problem, a dead letter with the original bytes, and (when {@code audited}) an audit
     * record. The log names the field at fault, never the values.
     */
    private void reject(Record<String, byte[]> record, IncomingRequest in, boolean audited) {
        String key = in.replyKey();
        RequestCheck.Problem problem = in.problem();
        LOG.warn("request {} rejected: bad {}", key, problem.field());
        replies.rejected(key, in.replyTo(), problem.message());
        context.forward(new Record<String, Object>(key, RequestDeadLetter.of(record.key(), record.value(), context.recordMetadata(),
                problem.message()), System.currentTimeMillis()), QueryTopology.DEAD_LETTER_SINK);
        if (audited) {
            audit(AuditRecords.rejected(key, in.conversationId(), in.userId(), ReplyType.ERROR, problem.message(),
                    pipeline.embeddingModel()));
        }
    }

    private void audit(SpecificRecord audit) {
        String key = String.valueOf(audit.get(0));
        context.forward(new Record<>(key, audit, System.currentTimeMillis()), QueryTopology.AUDIT_SINK);
    }
}
