package org.chartstream.query;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.audit.AuditRecords;
import org.chartstream.query.memory.ConversationMemories;
import org.chartstream.query.request.QuestionText;
import org.chartstream.query.request.ReplyTopics;
import org.chartstream.query.request.RequestCheck;
import org.chartstream.query.request.RequestFingerprint;
import org.chartstream.query.request.RequestIds;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyAddress;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thin wiring around {@link QueryPipeline}. On the stream thread: validate, check the conversation's owner, admit
 * (or answer {@code busy}), reply {@code accepted} and record the request as pending in a changelogged store. On
 * worker threads: run the pipeline. Back on the stream thread (a short punctuation): forward the reply events and
 * the audit record, update the conversation memory and drop the pending entry, all in one Streams transaction. A
 * restart re-runs whatever was still pending, so no admitted request goes unanswered. Turns of one conversation run
 * one after another, in arrival order. Logs carry ids and timings only.
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
    private static final Logger LOG = LoggerFactory.getLogger(QueryProcessor.class);

    private final QueryPipeline pipeline;
    private final QuerySettings settings;
    private final RequestIntegrity integrity;
    private final ExecutorService workers;
    private final AdmissionControl admission;
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);
    private final ConcurrentLinkedQueue<Emission> emissions = new ConcurrentLinkedQueue<>();
    private final Map<String, Integer> nextSeq = new HashMap<>();
    private final Set<String> runningConversations = new HashSet<>();
    /** Started requests by id, until their worker is done (also after a timeout reply). */
    private final Map<String, PendingRequest> started = new HashMap<>();
    /** Started requests already answered {@code timeout}: whatever their worker still hands back is dropped. */
    private final Set<String> timedOut = new HashSet<>();
    private final Map<String, Deque<PendingRequest>> waiting = new HashMap<>();
    private final Function<Map<String, Object>, ReplyTopics> replyTopicsFactory;
    private ReplyTopics replyTopics;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, PendingRequest> pending;
    private KeyValueStore<String, ConversationMemory> memories;
    private KeyValueStore<String, RequestIdEntry> requestIds;

    /** What a worker hands back to the stream thread, in order: citations, tokens, then the final result. */
    private sealed interface Emission permits CitationsReady, TokenReady, Completion {
        PendingRequest pending();
    }

    private record CitationsReady(PendingRequest pending, List<Passage> passages) implements Emission {
    }

    private record TokenReady(PendingRequest pending, String token) implements Emission {
    }

    private record Completion(PendingRequest pending, QueryPipeline.Result result, RuntimeException failure) implements Emission {
    }

    QueryProcessor(QueryPipeline pipeline, QuerySettings settings, RequestIntegrity integrity, ExecutorService workers,
                   AdmissionControl admission, Function<Map<String, Object>, ReplyTopics> replyTopicsFactory) {
        this.replyTopicsFactory = replyTopicsFactory;
        this.pipeline = pipeline;
        this.settings = settings;
        this.integrity = integrity;
        this.workers = workers;
        this.admission = admission;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.replyTopics = replyTopicsFactory.apply(context.appConfigs());
        this.pending = context.getStateStore(PENDING_STORE);
        this.memories = context.getStateStore(MEMORY_STORE);
        this.requestIds = context.getStateStore(REQUEST_ID_STORE);
        List<PendingRequest> recovered = new ArrayList<>();
        try (KeyValueIterator<String, PendingRequest> it = pending.all()) {
            it.forEachRemaining(kv -> recovered.add(kv.value));
        }
        recovered.sort(Comparator.comparingLong(PendingRequest::getReceivedTsMs));
        for (PendingRequest p : recovered) {
            admission.acquireRecovered();
            enqueue(p);
        }
        if (!recovered.isEmpty()) {
            LOG.info("resuming {} requests that were pending before a restart", recovered.size());
        }
        context.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, now -> {
            deliverEmissions();
            expireDeadlines();
        });
        context.schedule(EXPIRY_SCAN, PunctuationType.WALL_CLOCK_TIME, this::forgetExpiredRequestIds);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String requestedReplyTo = header(record.headers(), Topics.HEADER_REPLY_TO, Topics.REPLIES);
        String correlationId = header(record.headers(), Topics.HEADER_CORRELATION_ID, null);
        RequestCheck.Problem topicProblem = RequestCheck.replyTopicProblem(requestedReplyTo, integrity.replyTopics(), replyTopics);
        // a reply that cannot go where it was asked goes to the default reply topic; the dead letter names why
        String replyTo = topicProblem == null ? requestedReplyTo : Topics.REPLIES;
        QueryRequest request = decode(record.value());
        if (request == null) {
            reject(record, replyTo, correlationId, null, "?", "?", new RequestCheck.Problem("value",
                    "the message is not a QueryRequest (expected Avro single-object encoding)"), true);
            return;
        }
        RequestCheck.Problem problem = topicProblem != null ? topicProblem : RequestCheck.problem(request,
                settings.maxQuestionChars(), settings.maxTopK(), pipeline::indexedTables);
        if (problem == null && ConversationMemories.ownedByAnother(memories.get(request.getConversationId()), request.getUserId())) {
            problem = new RequestCheck.Problem("conversation_id",
                    "conversation '" + request.getConversationId() + "' belongs to another user");
        }
        if (problem != null) {
            reject(record, replyTo, correlationId, request.getRequestId(), request.getConversationId(), request.getUserId(), problem, true);
            return;
        }
        String id = request.getRequestId();
        String fingerprint = RequestFingerprint.of(request);
        long now = System.currentTimeMillis();
        if (answeredAsRepeat(record, request, fingerprint, replyTo, correlationId, now)) {
            return;
        }
        if (RequestCheck.pastDeadline(request, now)) {
            send(id, replyTo, correlationId, 0, ReplyType.TIMEOUT, null, List.of(), false,
                    "field 'deadline_ms' was already past when the request arrived; no answer was computed", List.of());
            audit(AuditRecords.rejected(id, request.getConversationId(), request.getUserId(), ReplyType.TIMEOUT,
                    "deadline passed before arrival", pipeline.embeddingModel()));
            LOG.info("request {} timed out before arrival", id);
            return;
        }
        if (!admission.tryAcquire()) {
            send(id, replyTo, correlationId, 0, ReplyType.BUSY, null, List.of(), false,
                    "busy: " + admission.limit() + " requests are in flight; retry later", List.of());
            audit(AuditRecords.rejected(id, request.getConversationId(), request.getUserId(),
                    ReplyType.BUSY, "admission limit " + admission.limit() + " reached", pipeline.embeddingModel()));
            LOG.info("request {} busy: admission limit {} reached", id, admission.limit());
            return;
        }
        send(id, replyTo, correlationId, 0, ReplyType.ACCEPTED, null, List.of(), false, null, List.of());
        QueryRequest normalised = QueryRequest.newBuilder(request).setQuestion(QuestionText.normalise(request.getQuestion())).build();
        PendingRequest p = PendingRequest.newBuilder().setRequest(normalised).setReplyTo(replyTo)
                .setCorrelationId(correlationId).setReceivedTsMs(now).setNextSeq(1).build();
        pending.put(id, p);
        requestIds.put(id, RequestIdEntry.newBuilder().setFingerprint(fingerprint).setFirstSeenMs(now).setOutcome(null).build());
        enqueue(p);
    }

    /**
     * Whether the request's id was taken already (within the window), and its repeat is answered: the same content
     * gets the final reply again (or, while in flight, the one answer when it comes), other content an error.
     */
    private boolean answeredAsRepeat(Record<String, byte[]> record, QueryRequest request, String fingerprint, String replyTo,
                                     String correlationId, long now) {
        String id = request.getRequestId();
        RequestIdEntry taken = requestIds.get(id);
        return switch (RequestIds.classify(taken, fingerprint, now, integrity.requestIdWindow())) {
            case CONFLICT -> {
                // no audit record: the audit trail and replays are keyed by request id and belong to the first request
                reject(record, replyTo, correlationId, id, request.getConversationId(), request.getUserId(),
                        RequestIds.conflict(id, integrity.requestIdWindow()), false);
                yield true;
            }
            case REPEAT -> {
                ReplyEvent original = ReplyEvent.newBuilder(taken.getOutcome()).setCorrelationId(correlationId)
                        .setTsMs(now).build();
                forwardReply(replyTo, original);
                LOG.info("request {} repeated: its final reply ({}) sent again", id, original.getType());
                yield true;
            }
            case IN_FLIGHT -> {
                PendingRequest running = pending.get(id);
                if (running == null || !running.getReplyTo().equals(replyTo)) {
                    List<ReplyAddress> retries = new ArrayList<>(taken.getRetries());
                    ReplyAddress address = new ReplyAddress(replyTo, correlationId);
                    if (!retries.contains(address)) {
                        retries.add(address);
                        requestIds.put(id, RequestIdEntry.newBuilder(taken).setRetries(retries).build());
                    }
                }
                LOG.info("request {} repeated while in flight: it gets the one answer", id);
                yield true;
            }
            case FIRST -> false;
        };
    }

    private QueryRequest decode(byte[] value) {
        try {
            return value == null ? null : requests.tryDeserialize(value);
        } catch (RuntimeException e) { // whatever the bytes are, they must not stop the stream thread
            return null;
        }
    }

    @Override
    public void close() {
        if (replyTopics != null) {
            replyTopics.close();
        }
    }

    private void enqueue(PendingRequest p) {
        String conversation = p.getRequest().getConversationId();
        if (runningConversations.contains(conversation)) {
            waiting.computeIfAbsent(conversation, c -> new ArrayDeque<>()).addLast(p);
        } else {
            start(p);
        }
    }

    private void start(PendingRequest p) {
        QueryRequest r = p.getRequest();
        runningConversations.add(r.getConversationId());
        started.put(r.getRequestId(), p);
        ConversationMemory memory = memories.get(r.getConversationId());
        long deadlineMs = r.getDeadlineMs() == null ? Long.MAX_VALUE : r.getDeadlineMs();
        try {
            workers.execute(() -> {
                try {
                    QueryPipeline.Listener listener = new QueryPipeline.Listener() {
                        @Override
                        public void onCitations(List<Passage> passages) {
                            emissions.add(new CitationsReady(p, passages));
                        }

                        @Override
                        public void onToken(String token) {
                            emissions.add(new TokenReady(p, token));
                        }
                    };
                    emissions.add(new Completion(p, pipeline.run(r.getQuestion(), RetrievalTypes.mode(r.getMode()), r.getTopK(),
                            filterOf(r.getFilter()), RetrievalTypes.history(memory), listener, deadlineMs), null));
                } catch (RuntimeException e) {
                    emissions.add(new Completion(p, null, e));
                }
            });
        } catch (RejectedExecutionException e) {
            emissions.add(new Completion(p, null, e));
        }
    }

    private void deliverEmissions() {
        Emission e;
        while ((e = emissions.poll()) != null) {
            PendingRequest p = e.pending();
            String id = p.getRequest().getRequestId();
            if (e instanceof Completion c) {
                deliver(c);
                continue;
            }
            if (timedOut.contains(id) || timeOutIfLate(p)) {
                continue; // no citations or tokens after a timeout reply
            }
            if (e instanceof CitationsReady c) {
                send(id, p.getReplyTo(), p.getCorrelationId(), seq(p), ReplyType.CITATIONS, null, citations(c.passages()),
                        false, null, List.of());
            } else if (e instanceof TokenReady tok) {
                send(id, p.getReplyTo(), p.getCorrelationId(), seq(p), ReplyType.TOKEN, tok.token(), List.of(), false, null, List.of());
            }
        }
    }

    private int seq(PendingRequest p) {
        String id = p.getRequest().getRequestId();
        int seq = nextSeq.getOrDefault(id, p.getNextSeq());
        nextSeq.put(id, seq + 1);
        return seq;
    }

    private void deliver(Completion c) {
        PendingRequest p = c.pending();
        QueryRequest r = p.getRequest();
        if (timedOut.remove(r.getRequestId())) {
            LOG.info("request {} finished after its timeout reply; its result is dropped", r.getRequestId());
        } else if (c.failure() instanceof QueryPipeline.DeadlinePassedException
                || RequestCheck.pastDeadline(r, System.currentTimeMillis())) {
            timeOut(p); // the answer came too late: it is not sent
        } else if (c.failure() != null) {
            String reason = "internal error while answering (" + c.failure().getClass().getSimpleName() + "); see the service log for the request id";
            LOG.error("request {} failed: {}", r.getRequestId(), c.failure().getClass().getSimpleName());
            finish(p, event(r.getRequestId(), p.getCorrelationId(), seq(p), ReplyType.ERROR, null, List.of(), false, reason, List.of()));
            audit(AuditRecords.rejected(r.getRequestId(), r.getConversationId(), r.getUserId(), ReplyType.ERROR,
                    reason, pipeline.embeddingModel()));
        } else {
            QueryPipeline.Result result = c.result();
            List<Citation> citations = citations(result.passages());
            finish(p, event(r.getRequestId(), p.getCorrelationId(), seq(p), RetrievalTypes.replyType(result.outcome()), result.answer(), citations,
                    result.extractive(), null, result.flaggedCitations()));
            audit(AuditRecords.of(r, result, pipeline.embeddingModel()));
            ConversationMemory memory = memories.get(r.getConversationId());
            memories.put(r.getConversationId(), ConversationMemories.append(
                    memory == null ? ConversationMemories.empty(r.getConversationId(), r.getUserId()) : memory,
                    r.getQuestion(), result.answer(), System.currentTimeMillis(), ConversationMemories.DEFAULT_MAX_TURNS));
            LOG.info("request {} answered: outcome={} citations={} gate={} total_ms={}", r.getRequestId(),
                    result.outcome(), citations.size(), result.gateDescription(), result.stageMs().get("total"));
        }
        started.remove(r.getRequestId());
        nextSeq.remove(r.getRequestId());
        admission.release();
        runningConversations.remove(r.getConversationId());
        Deque<PendingRequest> next = waiting.get(r.getConversationId());
        if (next != null && !next.isEmpty()) {
            PendingRequest following = next.pollFirst();
            if (next.isEmpty()) {
                waiting.remove(r.getConversationId());
            }
            start(following);
        }
    }

    /** Answers {@code timeout} when the request's deadline has passed; says whether it did. */
    private boolean timeOutIfLate(PendingRequest p) {
        if (!RequestCheck.pastDeadline(p.getRequest(), System.currentTimeMillis())) {
            return false;
        }
        timeOut(p);
        timedOut.add(p.getRequest().getRequestId());
        return true;
    }

    /** The final {@code timeout} reply, its audit record, and the request leaves the pending store. */
    private void timeOut(PendingRequest p) {
        QueryRequest r = p.getRequest();
        finish(p, event(r.getRequestId(), p.getCorrelationId(), seq(p), ReplyType.TIMEOUT, null, List.of(), false,
                "field 'deadline_ms' passed before the request could be answered; no answer follows", List.of()));
        audit(AuditRecords.rejected(r.getRequestId(), r.getConversationId(), r.getUserId(), ReplyType.TIMEOUT,
                "deadline passed while answering", pipeline.embeddingModel()));
        LOG.info("request {} timed out", r.getRequestId());
    }

    /**
     * Running requests past their deadline get their {@code timeout} reply now, whatever stage their worker is in;
     * waiting ones (behind an earlier turn of their conversation) are also dropped from the queue.
     */
    private void expireDeadlines() {
        long now = System.currentTimeMillis();
        for (PendingRequest p : List.copyOf(started.values())) {
            if (!timedOut.contains(p.getRequest().getRequestId()) && RequestCheck.pastDeadline(p.getRequest(), now)) {
                timeOutIfLate(p);
            }
        }
        for (Deque<PendingRequest> queue : waiting.values()) {
            queue.removeIf(p -> {
                if (!RequestCheck.pastDeadline(p.getRequest(), now)) {
                    return false;
                }
                timeOut(p);
                nextSeq.remove(p.getRequest().getRequestId());
                admission.release();
                return true;
            });
        }
        waiting.values().removeIf(Deque::isEmpty);
    }

    /**
     * Sends a request's final reply to its reply topic and to the topics of repeats that arrived meanwhile, records it
     * as the request id's outcome, and drops the pending entry: all in the same Streams transaction.
     */
    private void finish(PendingRequest p, ReplyEvent terminal) {
        String id = terminal.getRequestId();
        forwardReply(p.getReplyTo(), terminal);
        RequestIdEntry taken = requestIds.get(id);
        if (taken == null) { // pending from before request ids were remembered
            taken = RequestIdEntry.newBuilder().setFingerprint(RequestFingerprint.of(p.getRequest()))
                    .setFirstSeenMs(p.getReceivedTsMs()).build();
        }
        for (ReplyAddress retry : taken.getRetries()) {
            forwardReply(retry.getReplyTo(), ReplyEvent.newBuilder(terminal).setCorrelationId(retry.getCorrelationId()).build());
        }
        requestIds.put(id, RequestIdEntry.newBuilder(taken).setOutcome(terminal).setRetries(List.of()).build());
        pending.delete(id);
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
     * An error reply naming the problem (keyed by the request id, else the correlation id, else "unknown"), a dead
     * letter with the original bytes, and an audit record. The log names the field at fault, never the values.
     */
    private void reject(Record<String, byte[]> record, String replyTo, String correlationId, String requestId,
                        String conversationId, String userId, RequestCheck.Problem problem, boolean audited) {
        String id = requestId != null && !requestId.isBlank() ? requestId : correlationId != null ? correlationId : "unknown";
        LOG.warn("request {} rejected: bad {}", id, problem.field());
        send(id, replyTo, correlationId, 0, ReplyType.ERROR, null, List.of(), false, problem.message(), List.of());
        RecordMetadata meta = context.recordMetadata().orElse(null);
        DeadLetter dl = DeadLetter.newBuilder().setSourceTopic(meta == null ? Topics.REQUESTS : meta.topic())
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(record.key() == null ? null : ByteBuffer.wrap(record.key().getBytes(StandardCharsets.UTF_8)))
                .setValue(record.value() == null ? null : ByteBuffer.wrap(record.value()))
                .setStage("query.validate").setReason(problem.message()).setTsMs(System.currentTimeMillis()).build();
        context.forward(new Record<String, Object>(id, dl, System.currentTimeMillis()), QueryTopology.DEAD_LETTER_SINK);
        if (audited) {
            audit(AuditRecords.rejected(id, conversationId, userId, ReplyType.ERROR, problem.message(), pipeline.embeddingModel()));
        }
    }

    private void audit(SpecificRecord audit) {
        String key = String.valueOf(audit.get(0));
        context.forward(new Record<>(key, audit, System.currentTimeMillis()), QueryTopology.AUDIT_SINK);
    }

    private void send(String requestId, String replyTo, String correlationId, int seq, ReplyType type, String text,
                      List<Citation> citations, boolean extractive, String error, List<Integer> flagged) {
        forwardReply(replyTo, event(requestId, correlationId, seq, type, text, citations, extractive, error, flagged));
    }

    private static ReplyEvent event(String requestId, String correlationId, int seq, ReplyType type, String text,
                                    List<Citation> citations, boolean extractive, String error, List<Integer> flagged) {
        return ReplyEvent.newBuilder().setRequestId(requestId).setCorrelationId(correlationId).setSeq(seq)
                .setType(type).setText(text).setCitations(citations).setExtractive(extractive).setError(error)
                .setFlaggedCitations(flagged).setTsMs(System.currentTimeMillis()).build();
    }

    /**
     * Replies carry the correlation id as a header and nothing that routes: a {@code reply-to} copied onto a reply
     * would send whatever reads it as a request somewhere again.
     */
    private void forwardReply(String topic, ReplyEvent event) {
        Headers headers = new RecordHeaders();
        if (event.getCorrelationId() != null) {
            headers.add(Topics.HEADER_CORRELATION_ID, event.getCorrelationId().getBytes(StandardCharsets.UTF_8));
        }
        context.forward(new Record<String, Object>(event.getRequestId(), new QueryTopology.AddressedReply(topic, event),
                System.currentTimeMillis(), headers), QueryTopology.REPLY_SINK);
    }

    static RetrievalFilter filterOf(RetrievalFilterSpec spec) {
        if (spec == null) {
            return RetrievalFilter.NONE;
        }
        return new RetrievalFilter(Set.copyOf(spec.getTables()), Set.copyOf(spec.getSourceIds()),
                Set.copyOf(spec.getRowKeys()), spec.getPatient());
    }

    private static List<Citation> citations(List<Passage> passages) {
        List<Citation> out = new ArrayList<>(passages.size());
        for (Passage p : passages) {
            out.add(Citation.newBuilder().setIndex(p.index()).setChunkId(p.chunk().chunkId())
                    .setSourceId(p.chunk().row().sourceId()).setTableName(p.chunk().row().table())
                    .setRowKey(p.chunk().row().rowKey()).setGeneration(p.chunk().generation())
                    .setSourcePosition(p.chunk().sourcePosition()).setScore(p.score()).setText(p.text()).build());
        }
        return out;
    }

    private static String header(Headers headers, String name, String fallback) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? fallback : new String(h.value(), StandardCharsets.UTF_8);
    }
}
