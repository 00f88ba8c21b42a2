package org.chartstream.query;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.query.generate.Passage;
import org.chartstream.query.audit.AuditRecords;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.DeadLetter;
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
 * Thin wiring: request bytes → validated {@link QueryRequest} → {@link QueryPipeline} → reply events on the
 * request's reply topic and an audit record. A bad request gets an error reply naming the problem and a dead
 * letter; the processor never throws for bad input. Logs carry ids and timings only.
 */
final class QueryProcessor implements Processor<String, byte[], String, SpecificRecord> {
    private static final Logger LOG = LoggerFactory.getLogger(QueryProcessor.class);
    private final QueryPipeline pipeline;
    private final QuerySettings settings;
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);
    private ProcessorContext<String, SpecificRecord> context;

    QueryProcessor(QueryPipeline pipeline, QuerySettings settings) {
        this.pipeline = pipeline;
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String replyTo = header(record.headers(), Topics.HEADER_REPLY_TO, Topics.REPLIES);
        String correlationId = header(record.headers(), Topics.HEADER_CORRELATION_ID, null);
        Replies replies = new Replies(replyTo, correlationId, record.timestamp());

        QueryRequest request = record.value() == null ? null : requests.tryDeserialize(record.value());
        if (request == null) {
            String id = correlationId != null ? correlationId : "unknown";
            reject(record, replies, id, "?", "?", "the message is not a QueryRequest (expected Avro single-object encoding)");
            return;
        }
        String problem = validate(request);
        if (problem != null) {
            reject(record, replies, request.getRequestId(), request.getConversationId(), request.getUserId(), problem);
            return;
        }
        replies.send(request.getRequestId(), ReplyType.ACCEPTED, null, List.of(), false, null);
        try {
            QueryPipeline.Result result = pipeline.run(request.getQuestion(), request.getMode(), request.getTopK(), filterOf(request.getFilter()));
            List<Citation> citations = citations(result.passages());
            if (!citations.isEmpty()) {
                replies.send(request.getRequestId(), ReplyType.CITATIONS, null, citations, result.extractive(), null);
            }
            replies.send(request.getRequestId(), result.outcome(), result.answer(), citations, result.extractive(), null);
            context.forward(new Record<String, SpecificRecord>(request.getRequestId(),
                    AuditRecords.of(request, result, pipeline.embeddingModel()), record.timestamp()), QueryTopology.AUDIT_SINK);
            LOG.info("request {} answered: outcome={} citations={} gate={} total_ms={}", request.getRequestId(),
                    result.outcome(), citations.size(), result.gate().describe(), result.stageMs().get("total"));
        } catch (RuntimeException e) {
            LOG.error("request {} failed: {}", request.getRequestId(), e.getClass().getSimpleName());
            replies.send(request.getRequestId(), ReplyType.ERROR, null, List.of(), false,
                    "internal error while answering (" + e.getClass().getSimpleName() + "); see the service log for the request id");
            context.forward(new Record<String, SpecificRecord>(request.getRequestId(), AuditRecords.rejected(request.getRequestId(),
                    request.getConversationId(), request.getUserId(), ReplyType.ERROR, e.getClass().getSimpleName(),
                    pipeline.embeddingModel()), record.timestamp()), QueryTopology.AUDIT_SINK);
        }
    }

    private String validate(QueryRequest r) {
        if (r.getRequestId() == null || r.getRequestId().isBlank()) {
            return "field 'request_id' is empty";
        }
        if (r.getUserId() == null || r.getUserId().isBlank()) {
            return "field 'user_id' is empty";
        }
        if (r.getQuestion() == null || r.getQuestion().isBlank()) {
            return "field 'question' is empty";
        }
        if (r.getQuestion().length() > settings.maxQuestionChars()) {
            return "field 'question' has " + r.getQuestion().length() + " characters; the limit is " + settings.maxQuestionChars();
        }
        if (r.getTopK() < 1 || r.getTopK() > settings.maxTopK()) {
            return "field 'top_k' is " + r.getTopK() + "; it must be between 1 and " + settings.maxTopK();
        }
        if (r.getDeadlineMs() != null && r.getDeadlineMs() < System.currentTimeMillis()) {
            return "field 'deadline_ms' is already past";
        }
        return null;
    }

    private void reject(Record<String, byte[]> record, Replies replies, String requestId, String conversationId,
                        String userId, String problem) {
        LOG.warn("request {} rejected: {}", requestId, problem);
        replies.send(requestId, ReplyType.ERROR, null, List.of(), false, problem);
        RecordMetadata meta = context.recordMetadata().orElse(null);
        DeadLetter dl = DeadLetter.newBuilder().setSourceTopic(meta == null ? Topics.REQUESTS : meta.topic())
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(record.key() == null ? null : ByteBuffer.wrap(record.key().getBytes(StandardCharsets.UTF_8)))
                .setValue(record.value() == null ? null : ByteBuffer.wrap(record.value()))
                .setStage("query.validate").setReason(problem).setTsMs(System.currentTimeMillis()).build();
        context.forward(new Record<String, SpecificRecord>(requestId, dl, record.timestamp()), QueryTopology.DEAD_LETTER_SINK);
        context.forward(new Record<String, SpecificRecord>(requestId, AuditRecords.rejected(requestId, conversationId, userId,
                ReplyType.ERROR, problem, pipeline.embeddingModel()), record.timestamp()), QueryTopology.AUDIT_SINK);
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
                    .setSourcePosition(p.chunk().sourcePosition()).setScore(p.score()).setText(p.chunk().text()).build());
        }
        return out;
    }

    private static String header(Headers headers, String name, String fallback) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? fallback : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Sends one request's reply events in sequence on its reply topic. */
    private final class Replies {
        private final String replyTo;
        private final String correlationId;
        private final long timestamp;
        private int seq;

        Replies(String replyTo, String correlationId, long timestamp) {
            this.replyTo = replyTo;
            this.correlationId = correlationId;
            this.timestamp = timestamp;
        }

        void send(String requestId, ReplyType type, String text, List<Citation> citations, boolean extractive, String error) {
            ReplyEvent event = ReplyEvent.newBuilder().setRequestId(requestId).setCorrelationId(correlationId).setSeq(seq++)
                    .setType(type).setText(text).setCitations(citations).setExtractive(extractive).setError(error)
                    .setTsMs(System.currentTimeMillis()).build();
            Headers headers = new RecordHeaders();
            headers.add(Topics.HEADER_REPLY_TO, replyTo.getBytes(StandardCharsets.UTF_8));
            if (correlationId != null) {
                headers.add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
            }
            context.forward(new Record<String, SpecificRecord>(requestId, event, timestamp, headers), QueryTopology.REPLY_SINK);
        }
    }
}
