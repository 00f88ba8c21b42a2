package org.chartstream.app.ops;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecords;

/**
 * Follows the compacted ingest status topic from its beginning and keeps each table's latest {@link IngestTableStatus}
 * (the staged generation lives only there), so that a scrape reads memory instead of the topic. A record that is not
 * a table status is reported to its {@link UnreadableRecords} (dead letter, count) and skipped; being compacted, the
 * topic may hold it for good, so each process start reports it once.
 */
final class IngestStatusFollower implements AutoCloseable {
    static final String CONSUMER_NAME = "ops-ingest-status";
    private final KafkaConsumer<String, byte[]> consumer;
    private final UnreadableRecords unreadable;
    private final Map<String, IngestTableStatus> latest = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    IngestStatusFollower(String bootstrapServers, Map<String, String> clientOverrides, UnreadableRecords unreadable) {
        this.unreadable = unreadable;
        consumer = new KafkaConsumer<>(KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides,
                "chartstream-ops-status"), new StringDeserializer(), new ByteArrayDeserializer());
        thread = new Thread(this::run, "ops-ingest-status");
        thread.setDaemon(true);
        thread.start();
    }

    /** The latest status per {@code source:table} seen so far. */
    Map<String, IngestTableStatus> latest() {
        return latest;
    }

    private void run() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.INGEST_STATUS, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    follow(r);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void follow(ConsumerRecord<String, byte[]> r) {
        IngestStatusRecords.Read read = IngestStatusRecords.read(r.key(), r.value());
        if (!read.readable()) {
            unreadable.skipped(unreadableRecord(r, CONSUMER_NAME, read.problem()));
        } else if (read.status() != null) {
            latest.put(read.key(), read.status());
        }
    }

    /** The skipped status record with its original bytes (the key's serializer is a string one). */
    static UnreadableRecord unreadableRecord(ConsumerRecord<String, byte[]> r, String consumer, String problem) {
        return new UnreadableRecord(r.topic(), r.partition(), r.offset(),
                r.key() == null ? null : r.key().getBytes(java.nio.charset.StandardCharsets.UTF_8), r.value(), consumer, problem);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
