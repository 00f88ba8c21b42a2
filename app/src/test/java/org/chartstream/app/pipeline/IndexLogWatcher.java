package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
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
    private final Map<Long, Long> upsertsByGeneration = new HashMap<>();
    private final Map<Long, Long> markersByGeneration = new HashMap<>();
    private final Map<Integer, Long> afterLastEvent = new HashMap<>();
    private final Map<Long, Set<Integer>> markerPartitionsByGeneration = new HashMap<>();

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
        pollOnce();
    }

    /** Reads until a poll returns nothing: everything committed before now has been counted. */
    void drain() {
        while (pollOnce() > 0) {
            // keep reading
        }
    }

    private int pollOnce() {
        var records = consumer.poll(Duration.ofMillis(100));
        for (ConsumerRecord<String, IndexEvent> r : records) {
            afterLastEvent.put(r.partition(), r.offset() + 1);
            if (r.value().getKind() == IndexEventKind.MARKER) {
                markers++;
                markersByGeneration.merge(r.value().getGeneration(), 1L, Long::sum);
                markerPartitionsByGeneration.computeIfAbsent(r.value().getGeneration(), g -> new TreeSet<>()).add(r.partition());
            } else if (r.value().getKind() == IndexEventKind.UPSERT_ROW) {
                upserts++;
                upsertsByGeneration.merge(r.value().getGeneration(), 1L, Long::sum);
                if (markers > 0) {
                    upsertsAfterFirstMarker++;
                }
            }
        }
        return records.count();
    }

    long upserts() {
        return upserts;
    }

    /** Marker records (each publication reaches every partition, each embedding task writing its own). */
    long markers() {
        return markers;
    }

    long upsertsAfterFirstMarker() {
        return upsertsAfterFirstMarker;
    }

    /** Row upserts written for {@code generation} (staged or active). */
    long upserts(long generation) {
        return upsertsByGeneration.getOrDefault(generation, 0L);
    }

    /** Publication markers of {@code generation} (one per partition once published). */
    long markers(long generation) {
        return markersByGeneration.getOrDefault(generation, 0L);
    }

    /**
     * The index-log partitions on which a marker of {@code generation} has been read. Each embedding task writes its
     * own partition's marker in its own transaction, so a kill can leave some partitions with it and others without.
     */
    Set<Integer> markerPartitions(long generation) {
        return Set.copyOf(markerPartitionsByGeneration.getOrDefault(generation, Set.of()));
    }

    /** Per partition, the offset after the last event counted so far (not after transaction markers). */
    Map<Integer, Long> positions() {
        return Map.copyOf(afterLastEvent);
    }

    /** Polls the log until {@code done}; fails if the pipeline process dies or the timeout passes. */
    void await(BooleanSupplier done, ChildPipeline child, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(child.isAlive()).as("the pipeline process is running (see child.log)").isTrue();
            assertThat(System.nanoTime()).as("waited %s s (index log: %d upserts, %d markers)", timeout.toSeconds(),
                    upserts, markers).isLessThan(deadline);
            poll();
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
