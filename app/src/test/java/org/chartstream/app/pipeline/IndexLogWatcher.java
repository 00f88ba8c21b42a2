package org.chartstream.app.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/** Counts committed index-log events, to stop a pipeline at a chosen point (mid-snapshot, mid-stream). */
final class IndexLogWatcher implements AutoCloseable {
    private final KafkaConsumer<String, IndexEvent> consumer;
    private long upserts;
    private long markers;
    private long upsertsAfterFirstMarker;

    IndexLogWatcher(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        List<TopicPartition> tps = consumer.partitionsFor(Topics.INDEX, Duration.ofSeconds(30)).stream()
                .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
    }

    void poll() {
        for (ConsumerRecord<String, IndexEvent> r : consumer.poll(Duration.ofMillis(100))) {
            if (r.value().getKind() == IndexEventKind.MARKER) {
                markers++;
            } else if (r.value().getKind() == IndexEventKind.UPSERT_ROW) {
                upserts++;
                if (markers > 0) {
                    upsertsAfterFirstMarker++;
                }
            }
        }
    }

    long upserts() {
        return upserts;
    }

    /** Marker records (each publication is broadcast to every partition). */
    long markers() {
        return markers;
    }

    long upsertsAfterFirstMarker() {
        return upsertsAfterFirstMarker;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
