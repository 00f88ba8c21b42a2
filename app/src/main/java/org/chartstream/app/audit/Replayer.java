package org.chartstream.app.audit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.client.QueryClient;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Posts past requests again, each as a new request whose replies go to a replay topic of its own (never a topic
 * the originals were answered on), with at most {@code parallel} in flight. A replay keeps the question, mode,
 * top-k, filter and user; its request id is the original's plus {@link LoggedRequest#REPLAY_MARK} and the run id,
 * its conversation a fresh one per original conversation (replayed in order, so follow-ups see the replayed
 * turns), and it has no deadline. A request answered {@code busy} is posted again after a pause.
 */
public final class Replayer implements AutoCloseable {
    private static final int MAX_BUSY_RETRIES = 20;

    private final String bootstrapServers;
    private final Map<String, ?> clientOverrides;
    private final String replyTopic;
    private final KafkaProducer<String, byte[]> producer;
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);

    public Replayer(String bootstrapServers, Map<String, ?> clientOverrides, String replyTopic) {
        if (replyTopic.equals(Topics.REPLIES) || replyTopic.equals(Topics.REQUESTS) || replyTopic.equals(Topics.AUDIT)) {
            throw new IllegalArgumentException("--reply-topic must not be " + replyTopic + ": replays never mix with live traffic");
        }
        this.bootstrapServers = bootstrapServers;
        this.clientOverrides = clientOverrides;
        this.replyTopic = replyTopic;
        Properties p = clientProperties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-replay");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /** Refuses a replay topic that any of {@code originals} was answered on. */
    public static void requireSeparate(String replyTopic, List<LoggedRequest> originals) {
        for (LoggedRequest r : originals) {
            if (r.replyTo().equals(replyTopic)) {
                throw new IllegalArgumentException("--reply-topic " + replyTopic + " is the reply topic of request "
                        + r.request().getRequestId() + "; replays go to a topic of their own");
            }
        }
    }

    /** The id a replay of {@code originalRequestId} gets in run {@code runId}. */
    public static String replayId(String originalRequestId, String runId) {
        return originalRequestId + LoggedRequest.REPLAY_MARK + runId;
    }

    /** The replay of {@code original} in run {@code runId}. */
    public static QueryRequest replayOf(QueryRequest original, String runId) {
        return QueryRequest.newBuilder(original).setRequestId(replayId(original.getRequestId(), runId))
                .setConversationId("replay-" + runId + "-" + original.getConversationId()).setDeadlineMs(null).build();
    }

    /**
     * Replays {@code originals} in order and returns each one's final reply event by the ORIGINAL request id
     * (missing for those without a final reply within {@code timeout}).
     */
    public Map<String, ReplyEvent> replay(List<LoggedRequest> originals, String runId, int parallel, Duration timeout,
                                         Consumer<String> progress) {
        createReplyTopic();
        Map<String, ReplyEvent> finals = new LinkedHashMap<>();
        Map<String, QueryRequest> inFlight = new HashMap<>();
        Map<String, String> originalIdOf = new HashMap<>();
        Map<String, Integer> busyCount = new HashMap<>();
        ArrayDeque<QueryRequest> queue = new ArrayDeque<>();
        for (LoggedRequest r : originals) {
            QueryRequest replay = replayOf(r.request(), runId);
            queue.add(replay);
            originalIdOf.put(replay.getRequestId(), r.request().getRequestId());
        }
        Properties c = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-replay-reader");
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastReport = System.nanoTime();
        AvroSerde<ReplyEvent> replies = AvroSerde.of(ReplyEvent.class);
        // bytes, decoded here: one record that is not a reply event must not end the replay
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(replyTopic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(replyTopic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            while ((!queue.isEmpty() || !inFlight.isEmpty()) && System.nanoTime() < deadline) {
                while (inFlight.size() < parallel && !queue.isEmpty()) {
                    QueryRequest next = queue.poll();
                    send(next);
                    inFlight.put(next.getRequestId(), next);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    ReplyEvent e = r.value() == null ? null : replies.tryDeserialize(r.value());
                    if (e == null || !inFlight.containsKey(e.getRequestId()) || !QueryClient.FINAL.contains(e.getType())) {
                        continue;
                    }
                    QueryRequest done = inFlight.remove(e.getRequestId());
                    if (e.getType() == ReplyType.BUSY && busyCount.merge(done.getRequestId(), 1, Integer::sum) <= MAX_BUSY_RETRIES) {
                        sleep(250);
                        queue.addFirst(done);
                    } else {
                        finals.put(originalIdOf.get(done.getRequestId()), e);
                    }
                }
                if (System.nanoTime() - lastReport > 2_000_000_000L) {
                    lastReport = System.nanoTime();
                    progress.accept("replayed " + finals.size() + "/" + originals.size());
                }
            }
        }
        return finals;
    }

    private void send(QueryRequest request) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, request.getConversationId(), requests.serialize(request));
        record.headers().add(Topics.HEADER_REPLY_TO, replyTopic.getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.HEADER_CORRELATION_ID, request.getRequestId().getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(record).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while posting a replay", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot post a replay to " + Topics.REQUESTS + ": " + e.getCause().getMessage(), e);
        }
    }

    private void createReplyTopic() {
        Properties p = clientProperties();
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(replyTopic, 1, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the replay topic " + replyTopic + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating " + replyTopic, e);
        }
        // the query topology checks that a reply topic exists before it answers there; give its metadata a moment
        sleep(500);
    }

    private Properties clientProperties() {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    private static void sleep(long ms) {
        java.util.concurrent.locks.LockSupport.parkNanos(ms * 1_000_000L); // the callers' loops are bounded by deadlines
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }
}
