package org.chartstream.app.ops;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.app.client.KafkaClientProperties;
import org.chartstream.ingest.IngestSettings;
import org.chartstream.ingest.status.TableStatus;

/**
 * Follows the compacted ingest status topic from its beginning and keeps each table's latest {@link TableStatus}
 * (the staged generation lives only there), so that a scrape reads memory instead of the topic.
 */
final class IngestStatusFollower implements AutoCloseable {
    private final KafkaConsumer<String, String> consumer;
    private final Map<String, TableStatus> latest = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    IngestStatusFollower(String bootstrapServers, Map<String, String> clientOverrides) {
        consumer = new KafkaConsumer<>(KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides,
                "chartstream-ops-status"), new StringDeserializer(), new StringDeserializer());
        thread = new Thread(this::run, "ops-ingest-status");
        thread.setDaemon(true);
        thread.start();
    }

    /** The latest status per {@code source:table} seen so far. */
    Map<String, TableStatus> latest() {
        return latest;
    }

    private void run() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(IngestSettings.STATUS_TOPIC, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (running) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() != null) {
                        latest.put(r.key(), TableStatus.decode(r.value()));
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
