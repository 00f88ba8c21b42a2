package org.chartstream.query;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.catchup.IndexCatchUp;
import org.chartstream.query.reply.KafkaReplySender;
import org.chartstream.query.reply.ReplySender;
import org.chartstream.query.request.KafkaReplyTopics;
import org.chartstream.query.request.ReplyTopics;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.RequestIdEntry;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * {@code chartstream.requests} (key = conversation id, so one conversation's turns are answered in order) →
 * {@link QueryProcessor} (validation, duplicate request ids, admission, pending requests and conversation memory in
 * changelogged stores) → reply events on each request's checked reply topic (sent at once by a {@link ReplySender},
 * outside the transaction), audit records on {@code chartstream.audit} and bad requests on the dead-letter topic
 * (both in the transaction).
 */
public final class QueryTopology {
    static final String AUDIT_SINK = "audit";
    static final String DEAD_LETTER_SINK = "dead-letters";

    private QueryTopology() {
    }

    /**
     * Reply topics checked against the broker, replies sent by a producer of their own ({@link KafkaReplySender}).
     *
     * @param workers   threads that run the pipeline (the stream thread only validates, admits and delivers)
     * @param admission the in-flight bound shared by every task of this instance
     */
    public static Topology build(QueryPipeline pipeline, QuerySettings settings, ExecutorService workers, AdmissionControl admission,
                                 RequestIntegrity integrity) {
        return build(pipeline, settings, workers, admission, integrity, IndexCatchUp.NONE);
    }

    /** @param catchUp whether the store replica has caught up with the index log (a task holds its runs until it has) */
    public static Topology build(QueryPipeline pipeline, QuerySettings settings, ExecutorService workers, AdmissionControl admission,
                                 RequestIntegrity integrity, IndexCatchUp catchUp) {
        return build(pipeline, settings, workers, admission, integrity, KafkaReplyTopics::fromStreamsConfig, KafkaReplySender::fromStreamsConfig,
                catchUp);
    }

    /**
     * @param replyTopics given the Streams configuration, what says whether a {@code reply-to} topic exists (a
     *                    request naming a missing one gets its error reply on {@code chartstream.replies})
     * @param replies     given the Streams configuration, where reply events leave (outside the Streams transaction)
     */
    public static Topology build(QueryPipeline pipeline, QuerySettings settings, ExecutorService workers, AdmissionControl admission,
                                 RequestIntegrity integrity, Function<Map<String, Object>, ReplyTopics> replyTopics,
                                 Function<Map<String, Object>, ReplySender> replies) {
        return build(pipeline, settings, workers, admission, integrity, replyTopics, replies, IndexCatchUp.NONE);
    }

    /** The same, with the runs of each task held until the store replica has caught up ({@link IndexCatchUp}). */
    public static Topology build(QueryPipeline pipeline, QuerySettings settings, ExecutorService workers, AdmissionControl admission,
                                 RequestIntegrity integrity, Function<Map<String, Object>, ReplyTopics> replyTopics,
                                 Function<Map<String, Object>, ReplySender> replies, IndexCatchUp catchUp) {
        Topology topology = new Topology();
        topology.addSource("requests", new StringDeserializer(), new ByteArrayDeserializer(), Topics.REQUESTS);
        topology.addProcessor("answer", () -> new QueryProcessor(pipeline, settings, integrity, workers, admission, replyTopics, replies,
                catchUp),
                "requests");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(QueryProcessor.PENDING_STORE),
                Serdes.String(), AvroSerde.of(PendingRequest.class)), "answer");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(QueryProcessor.MEMORY_STORE),
                Serdes.String(), AvroSerde.of(ConversationMemory.class)), "answer");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(QueryProcessor.REQUEST_ID_STORE),
                Serdes.String(), AvroSerde.of(RequestIdEntry.class)), "answer");
        topology.addSink(AUDIT_SINK, Topics.AUDIT, new StringSerializer(), AvroSerde.of(AnswerAudit.class), "answer");
        topology.addSink(DEAD_LETTER_SINK, Topics.DEAD_LETTER, new StringSerializer(), AvroSerde.of(DeadLetter.class), "answer");
        return topology;
    }
}
