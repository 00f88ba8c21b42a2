package org.chartstream.query;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.query.reply.KafkaReplySender;
import org.chartstream.query.reply.ReplySender;
import org.chartstream.query.request.KafkaReplyTopics;
import org.chartstream.query.request.ReplyTopics;
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

    /** Reply topics checked against the broker, replies sent by a producer of their own ({@link KafkaReplySender}). */
    public static Topology build(QueryServing serving) {
        return build(serving, KafkaReplyTopics::fromStreamsConfig, KafkaReplySender::fromStreamsConfig);
    }

    /**
     * @param replyTopics given the Streams configuration, what says whether a {@code reply-to} topic exists (a
     *                    request naming a missing one gets its error reply on {@code chartstream.replies})
     * @param replies     given the Streams configuration, where reply events leave (outside the Streams transaction)
     */
    public static Topology build(QueryServing serving, Function<Map<String, Object>, ReplyTopics> replyTopics,
                                 Function<Map<String, Object>, ReplySender> replies) {
        Topology topology = new Topology();
        topology.addSource("requests", new StringDeserializer(), new ByteArrayDeserializer(), Topics.REQUESTS);
        topology.addProcessor("answer", () -> new QueryProcessor(serving, replyTopics, replies), "requests");
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
