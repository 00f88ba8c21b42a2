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
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.audit.AuditRecords;
import org.chartstream.query.generate.Passage;
import org.chartstream.query.memory.ConversationMemories;
import org.chartstream.query.request.ReplyTopics;
import org.chartstream.query.request.RequestCheck;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.RetrievalFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thin wiring around {@link QueryPipeline}. On the stream thread: validate, check the conversation's owner, admit
 * (or answer {@code busy}), reply {@code accepted} and record the request as pending in a changelogged store. On
 * worker threads: run the pipeline. Back on the stream thread (a short punctuation): forward the reply events and
 * the audit record, update the conversation memory and drop the pending entry, all in one Streams transaction. A
 * restart re-runs whatever was still pending, so no admitted request goes unanswered. Turns of one conversation run
 * one after another, in arrival order. Logs carry ids and timings only.
 */
final class QueryProcessor implements Processor<String, byte[], String, SpecificRecord> {
    static final String PENDING_STORE = "pending-requests";
    static final String MEMORY_STORE = "conversation-memory";
    private static final Logger LOG = LoggerFactory.getLogger(QueryProcessor.class);

    private final QueryPipeline pipeline;
    private final QuerySettings settings;
    private final ExecutorService workers;
    private final AdmissionControl admission;
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);
    private final ConcurrentLinkedQueue<Emission> emissions = new ConcurrentLinkedQueue<>();
    private final Map<String, Integer> nextSeq = new HashMap<>();
    private final Set<String> runningConversations = new HashSet<>();
    private final Map<String, Deque<PendingRequest>> waiting = new HashMap<>();
    private final Function<Map<String, Object>, ReplyTopics> replyTopicsFactory;
    private ReplyTopics replyTopics;
    private ProcessorContext<String, SpecificRecord> context;
    private KeyValueStore<String, PendingRequest> pending;
    private KeyValueStore<String, ConversationMemory> memories;

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

    QueryProcessor(QueryPipeline pipeline, QuerySettings settings, ExecutorService workers, AdmissionControl admission,
                   Function<Map<String, Object>, ReplyTopics> replyTopicsFactory) {
        this.replyTopicsFactory = replyTopicsFactory;
        this.pipeline = pipeline;
        this.settings = settings;
        this.workers = workers;
        this.admission = admission;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        this.replyTopics = replyTopicsFactory.apply(context.appConfigs());
        this.pending = context.getStateStore(PENDING_STORE);
        this.memories = context.getStateStore(MEMORY_STORE);
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
        context.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, now -> deliverEmissions());
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String requestedReplyTo = header(record.headers(), Topics.HEADER_REPLY_TO, Topics.REPLIES);
        String correlationId = header(record.headers(), Topics.HEADER_CORRELATION_ID, null);
        RequestCheck.Problem topicProblem = RequestCheck.replyTopicProblem(requestedReplyTo, replyTopics);
        // a reply that cannot go where it was asked goes to the default reply topic; the dead letter names why
        String replyTo = topicProblem == null ? requestedReplyTo : Topics.REPLIES;
        QueryRequest request = decode(record.value());
        if (request == null) {
            reject(record, replyTo, correlationId, null, "?", "?", new RequestCheck.Problem("value",
                    "the message is not a QueryRequest (expected Avro single-object encoding)"));
            return;
        }
        RequestCheck.Problem problem = topicProblem != null ? topicProblem : RequestCheck.problem(request,
                settings.maxQuestionChars(), settings.maxTopK(), System.currentTimeMillis(), pipeline::indexedTables);
        if (problem == null && ConversationMemories.ownedByAnother(memories.get(request.getConversationId()), request.getUserId())) {
            problem = new RequestCheck.Problem("conversation_id",
                    "conversation '" + request.getConversationId() + "' belongs to another user");
        }
        if (problem != null) {
            reject(record, replyTo, correlationId, request.getRequestId(), request.getConversationId(), request.getUserId(), problem);
            return;
        }
        if (!admission.tryAcquire()) {
            send(request.getRequestId(), replyTo, correlationId, 0, ReplyType.BUSY, null, List.of(), false,
                    "busy: " + admission.limit() + " requests are in flight; retry later", List.of());
            audit(AuditRecords.rejected(request.getRequestId(), request.getConversationId(), request.getUserId(),
                    ReplyType.BUSY, "admission limit " + admission.limit() + " reached", pipeline.embeddingModel()));
            LOG.info("request {} busy: admission limit {} reached", request.getRequestId(), admission.limit());
            return;
        }
        send(request.getRequestId(), replyTo, correlationId, 0, ReplyType.ACCEPTED, null, List.of(), false, null, List.of());
        PendingRequest p = PendingRequest.newBuilder().setRequest(request).setReplyTo(replyTo)
                .setCorrelationId(correlationId).setReceivedTsMs(System.currentTimeMillis()).setNextSeq(1).build();
        pending.put(request.getRequestId(), p);
        enqueue(p);
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
        ConversationMemory memory = memories.get(r.getConversationId());
        try {
            workers.execute(() -> {
                try {
                    if (r.getDeadlineMs() != null && r.getDeadlineMs() < System.currentTimeMillis()) {
                        throw new DeadlinePassedException();
                    }
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
                    emissions.add(new Completion(p, pipeline.run(r.getQuestion(), r.getMode(), r.getTopK(),
                            filterOf(r.getFilter()), memory, listener), null));
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
            QueryRequest r = p.getRequest();
            String id = r.getRequestId();
            if (e instanceof CitationsReady c) {
                send(id, p.getReplyTo(), p.getCorrelationId(), seq(p), ReplyType.CITATIONS, null, citations(c.passages()),
                        false, null, List.of());
            } else if (e instanceof TokenReady tok) {
                send(id, p.getReplyTo(), p.getCorrelationId(), seq(p), ReplyType.TOKEN, tok.token(), List.of(), false, null, List.of());
            } else {
                deliver((Completion) e);
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
        if (c.failure() != null) {
            boolean deadline = c.failure() instanceof DeadlinePassedException;
            String reason = deadline ? "field 'deadline_ms' passed before the request could be answered"
                    : "internal error while answering (" + c.failure().getClass().getSimpleName() + "); see the service log for the request id";
            LOG.error("request {} failed: {}", r.getRequestId(), c.failure().getClass().getSimpleName());
            send(r.getRequestId(), p.getReplyTo(), p.getCorrelationId(), seq(p), ReplyType.ERROR, null, List.of(), false, reason, List.of());
            audit(AuditRecords.rejected(r.getRequestId(), r.getConversationId(), r.getUserId(), ReplyType.ERROR,
                    reason, pipeline.embeddingModel()));
        } else {
            QueryPipeline.Result result = c.result();
            List<Citation> citations = citations(result.passages());
            send(r.getRequestId(), p.getReplyTo(), p.getCorrelationId(), seq(p), result.outcome(), result.answer(), citations,
                    result.extractive(), null, result.flaggedCitations());
            audit(AuditRecords.of(r, result, pipeline.embeddingModel()));
            ConversationMemory memory = memories.get(r.getConversationId());
            memories.put(r.getConversationId(), ConversationMemories.append(
                    memory == null ? ConversationMemories.empty(r.getConversationId(), r.getUserId()) : memory,
                    r.getQuestion(), result.answer(), System.currentTimeMillis(), ConversationMemories.DEFAULT_MAX_TURNS));
            LOG.info("request {} answered: outcome={} citations={} gate={} total_ms={}", r.getRequestId(),
                    result.outcome(), citations.size(), result.gateDescription(), result.stageMs().get("total"));
        }
        nextSeq.remove(r.getRequestId());
        pending.delete(r.getRequestId());
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

    /**
     * An error reply naming the problem (keyed by the request id, else the correlation id, else "unknown"), a dead
     * letter with the original bytes, and an audit record. The log names the field at fault, never the values.
     */
    private void reject(Record<String, byte[]> record, String replyTo, String correlationId, String requestId,
                        String conversationId, String userId, RequestCheck.Problem problem) {
        String id = requestId != null && !requestId.isBlank() ? requestId : correlationId != null ? correlationId : "unknown";
        LOG.warn("request {} rejected: bad {}", id, problem.field());
        send(id, replyTo, correlationId, 0, ReplyType.ERROR, null, List.of(), false, problem.message(), List.of());
        RecordMetadata meta = context.recordMetadata().orElse(null);
        DeadLetter dl = DeadLetter.newBuilder().setSourceTopic(meta == null ? Topics.REQUESTS : meta.topic())
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(record.key() == null ? null : ByteBuffer.wrap(record.key().getBytes(StandardCharsets.UTF_8)))
                .setValue(record.value() == null ? null : ByteBuffer.wrap(record.value()))
                .setStage("query.validate").setReason(problem.message()).setTsMs(System.currentTimeMillis()).build();
        context.forward(new Record<String, SpecificRecord>(id, dl, System.currentTimeMillis()), QueryTopology.DEAD_LETTER_SINK);
        audit(AuditRecords.rejected(id, conversationId, userId, ReplyType.ERROR, problem.message(), pipeline.embeddingModel()));
    }

    private void audit(SpecificRecord audit) {
        String key = String.valueOf(audit.get(0));
        context.forward(new Record<>(key, audit, System.currentTimeMillis()), QueryTopology.AUDIT_SINK);
    }

    private void send(String requestId, String replyTo, String correlationId, int seq, ReplyType type, String text,
                      List<Citation> citations, boolean extractive, String error, List<Integer> flagged) {
        ReplyEvent event = ReplyEvent.newBuilder().setRequestId(requestId).setCorrelationId(correlationId).setSeq(seq)
                .setType(type).setText(text).setCitations(citations).setExtractive(extractive).setError(error)
                .setFlaggedCitations(flagged).setTsMs(System.currentTimeMillis()).build();
        Headers headers = new RecordHeaders();
        headers.add(Topics.HEADER_REPLY_TO, replyTo.getBytes(StandardCharsets.UTF_8));
        if (correlationId != null) {
            headers.add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        }
        context.forward(new Record<String, SpecificRecord>(requestId, event, System.currentTimeMillis(), headers), QueryTopology.REPLY_SINK);
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

    private static final class DeadlinePassedException extends RuntimeException {
        DeadlinePassedException() {
            super("deadline passed", null, false, false);
        }
    }
}
