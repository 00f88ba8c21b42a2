package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.client.QueryClient;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.StreamsClients;
import org.chartstream.runtime.QueryWiring;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real query topology on the embedded broker with a Streams commit interval of 30 s: answers and busy replies
 * reach a {@code read_committed} client within seconds, long before the first commit, because replies leave outside
 * the transaction.
 */
class QueryReplyDeliveryIT {
    private static final long COMMIT_INTERVAL_MS = 30_000;
    private static final Duration WELL_BEFORE_THE_COMMIT = Duration.ofSeconds(10);
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);
    private static final AvroSerde<ReplyEvent> REPLIES = AvroSerde.of(ReplyEvent.class);

    @TempDir
    Path dir;

    @Test
    void answersAndBusyRepliesReachAReadCommittedClientLongBeforeTheNextCommit() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("query.commit-interval-ms", Long.toString(COMMIT_INTERVAL_MS)).with("query.admission-limit", "1");
        try (OnnxEmbedder model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
             LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"));
             EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start(dir.resolve("kafka"))) {
            String text = "record: medications\npatient: Martha Collins (MRN-1)\ndescription: metformin hydrochloride 500 MG Oral Tablet";
            StoredChunk chunk = ChunkFixture.of("ehr", "medications", "m1").text(text).vector(model.embedPassages(List.of(text))[0])
                    .model(model.modelId()).patient("MRN-1").build();
            RowRef row = chunk.row();
            store.upsertRow(row, chunk.generation(), List.of(chunk));
            store.publish(row.tableRef(), chunk.generation());
            store.commit(Map.of());
            broker.createTopics(Map.of(Topics.REQUESTS, 1, Topics.REPLIES, 1, Topics.AUDIT, 1, Topics.DEAD_LETTER, 1));
            try (QueryWiring wiring = QueryWiring.create(config, model, store)) {
                Properties p = StreamsClients.streamsProperties("reply-delivery-it", broker.bootstrapServers(), Map.of(), dir.resolve("streams"));
                p.putAll(QueryWiring.streamsSettings(config));
                try (KafkaStreams streams = new KafkaStreams(wiring.topology(), p)) {
                    streams.start();
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (streams.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);

                    try (QueryClient client = new QueryClient(broker.bootstrapServers(), Topics.REPLIES)) {
                        long t = System.nanoTime();
                        List<ReplyEvent> events = client.ask(request("Which patient takes metformin?"), WELL_BEFORE_THE_COMMIT, e -> { });
                        Duration took = Duration.ofNanos(System.nanoTime() - t);
                        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
                        assertThat(events.get(2).getCitations()).extracting(c -> c.getRowKey()).contains("m1");
                        assertThat(took).isLessThan(WELL_BEFORE_THE_COMMIT);
                    }

                    Map<String, ReplyType> finals = burst(broker.bootstrapServers(), 4);
                    assertThat(finals).as("every request of the burst has its final reply").hasSize(4);
                    assertThat(finals.values()).as("one slot: the others are busy at once").contains(ReplyType.BUSY, ReplyType.ANSWER);
                }
            }
        }
    }

    private static QueryRequest request(String question) {
        String id = UUID.randomUUID().toString();
        return QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("it").setQuestion(question).setTopK(3).build();
    }

    /** Posts {@code n} requests in one batch and reads their final replies, read_committed, for a few seconds at most. */
    private static Map<String, ReplyType> burst(String bootstrap, int n) {
        Properties c = KafkaClientProperties.readCommittedConsumer(bootstrap, Map.of(), "reply-delivery-it-reader");
        Map<String, ReplyType> finals = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                     ProducerConfig.LINGER_MS_CONFIG, "50"), new StringSerializer(), new ByteArraySerializer())) {
            TopicPartition replies = new TopicPartition(Topics.REPLIES, 0);
            consumer.assign(List.of(replies));
            consumer.seekToEnd(List.of(replies));
            consumer.position(replies);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                QueryRequest r = request("Which patient takes metformin?");
                ids.add(r.getRequestId());
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, r.getConversationId(), REQUESTS.serialize(r));
                record.headers().add(Topics.HEADER_REPLY_TO, Topics.REPLIES.getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
            long deadline = System.nanoTime() + WELL_BEFORE_THE_COMMIT.toNanos();
            while (finals.size() < n && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    ReplyEvent e = REPLIES.tryDeserialize(r.value());
                    if (e != null && ids.contains(e.getRequestId()) && QueryClient.FINAL.contains(e.getType())) {
                        finals.put(e.getRequestId(), e.getType());
                    }
                }
            }
        }
        return finals;
    }
}
