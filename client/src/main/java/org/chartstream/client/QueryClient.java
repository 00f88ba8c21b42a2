package org.chartstream.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * What an upstream system does: posts a {@link QueryRequest} on the request topic with {@code reply-to} and
 * {@code correlation-id} headers, then reads that request's reply events until a final one arrives, each once
 * ({@link ReplyDeduplicator}: replies are at least once). Thread-safe: many requests may wait at once, each on its
 * own thread, and one consumer (the client's reply reader thread) reads the reply topic once for all of them.
 */
public final class QueryClient implements AutoCloseable {
    public static final Set<ReplyType> FINAL = EnumSet.of(ReplyType.ANSWER, ReplyType.REFUSED, ReplyType.UNAVAILABLE,
            ReplyType.BUSY, ReplyType.ERROR, ReplyType.TIMEOUT, ReplyType.CLARIFY);

    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final String replyTopic;
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);
    /** How often a waiting request checks that the reply reader still runs. */
    private static final Duration READER_CHECK = Duration.ofMillis(500);
    private final ReplyRouter waiting = new ReplyRouter();
    private final Thread reader;
    private volatile boolean closed;
    private volatile RuntimeException readerFailure;

    public QueryClient(String bootstrapServers, String replyTopic) {
        this(bootstrapServers, java.util.Map.of(), replyTopic);
    }

    /** @param clientOverrides further client settings, e.g. the transport security of an external broker */
    public QueryClient(String bootstrapServers, java.util.Map<String, ?> clientOverrides, String replyTopic) {
        this.replyTopic = replyTopic;
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-query-client");
        // one request at a time, waited for: batching would only add Kafka 4's default 5 ms linger to every request
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer());
        Properties c = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-reply-reader");
        // bytes, decoded here: a record on the reply topic that is not a reply event must not end the wait
        this.consumer = new KafkaConsumer<>(c, new StringDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        List<PartitionInfo> infos = consumer.partitionsFor(replyTopic, Duration.ofSeconds(30));
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("reply topic " + replyTopic + " does not exist on " + bootstrapServers);
        }
        infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolve the end now, before the request is sent
        this.reader = new Thread(this::readReplies, "chartstream-reply-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Sends the request and returns its reply events in order, calling {@code onEvent} as each arrives. */
    public List<ReplyEvent> ask(QueryRequest request, Duration timeout, Consumer<ReplyEvent> onEvent) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, request.getConversationId(), requests.serialize(request));
        record.headers().add(Topics.HEADER_REPLY_TO, replyTopic.getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.HEADER_CORRELATION_ID, request.getRequestId().getBytes(StandardCharsets.UTF_8));
        return sendAndAwait(record, request.getRequestId(), timeout, onEvent);
    }

    /** Sends raw bytes as a request (for tests of bad input) and waits for the reply with this correlation id. */
    public List<ReplyEvent> askRaw(String key, byte[] value, String correlationId, Duration timeout) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, key, value);
        record.headers().add(Topics.HEADER_REPLY_TO, replyTopic.getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        return sendAndAwait(record, correlationId, timeout, e -> { });
    }

    private List<ReplyEvent> sendAndAwait(ProducerRecord<String, byte[]> record, String id, Duration timeout, Consumer<ReplyEvent> onEvent) {
        BlockingQueue<ReplyEvent> mine = waiting.register(id);
        try {
            try {
                producer.send(record).get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot post the request to " + Topics.REQUESTS + ": " + e.getMessage(), e);
            }
            List<ReplyEvent> events = new ArrayList<>();
            ReplyDeduplicator dedupe = new ReplyDeduplicator();
            long deadline = System.nanoTime() + timeout.toNanos();
            for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
                ReplyEvent e = mine.poll(Math.min(left, READER_CHECK.toNanos()), TimeUnit.NANOSECONDS);
                if (e == null) {
                    requireReaderAlive();
                } else if (dedupe.isNew(e)) {
                    events.add(e);
                    onEvent.accept(e);
                    if (FINAL.contains(e.getType())) {
                        return events;
                    }
                }
            }
            throw new IllegalStateException("no final reply for request " + id + " within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the replies of " + id, e);
        } finally {
            waiting.unregister(id);
        }
    }

    /** The reply reader's loop: every record that may answer a waiting request is decoded and handed to it. */
    private void readReplies() {
        try {
            while (!closed) {
                consumer.poll(Duration.ofMillis(100)).forEach(waiting::route);
            }
        } catch (WakeupException e) {
            if (!closed) {
                readerFailure = e;
            }
        } catch (RuntimeException e) {
            readerFailure = e;
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void requireReaderAlive() {
        RuntimeException failure = readerFailure;
        if (failure != null) {
            throw new IllegalStateException("the reply reader stopped: " + failure.getMessage(), failure);
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            reader.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(2));
    }
}
