package org.chartstream.app.pipeline;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.app.ops.IngestStatusRecords;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.runtime.StoreStatus;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.ReplicaStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecords;

/**
 * Reads a running pipeline's state through Kafka: the ingest status and progress topics, the store status topic and
 * consumer lag. A record it cannot read is skipped and reported once per reader (by default on stderr, offset and
 * reason only: a read-only command does not dead-letter what the compacted topic will show it again next time).
 */
public final class IngestStatusReader implements AutoCloseable {
    /** The name it reports skipped status records under. */
    public static final String CONSUMER_NAME = "status-reader";
    private static final AvroSerde<EmbeddingProgress> PROGRESS = AvroSerde.of(EmbeddingProgress.class);
    private static final AvroSerde<ReplicaStatus> REPLICA = AvroSerde.of(ReplicaStatus.class);
    private final String bootstrapServers;
    private final Map<String, ?> clientOverrides;
    private final Admin admin;
    private final UnreadableRecords unreadable;
    private final Set<String> reported = new HashSet<>();

    public IngestStatusReader(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /** @param clientOverrides further client settings, e.g. the transport security of an external broker */
    public IngestStatusReader(String bootstrapServers, Map<String, ?> clientOverrides) {
        this(bootstrapServers, clientOverrides, UnreadableRecords.reportingTo(line -> System.err.println("[chartstream] " + line)));
    }

    /** @param unreadable where status records that cannot be read are reported */
    public IngestStatusReader(String bootstrapServers, Map<String, ?> clientOverrides, UnreadableRecords unreadable) {
        this.unreadable = unreadable;
        this.bootstrapServers = bootstrapServers;
        this.clientOverrides = clientOverrides;
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-status");
        this.admin = Admin.create(p);
    }

    /** The latest status of every table, read from the compacted status topic up to its end. */
    public Map<String, IngestTableStatus> latestTableStatus(Duration timeout) {
        Map<String, IngestTableStatus> latest = new TreeMap<>();
        readToEnd(Topics.INGEST_STATUS, timeout, r -> {
            IngestStatusRecords.Read read = IngestStatusRecords.read(r.key(), r.value());
            if (!read.readable()) {
                report(r, read.problem());
            } else if (read.status() != null) {
                latest.put(read.key(), read.status());
            }
        });
        return latest;
    }

    /** The latest progress of every embedding task (repartition partition), from the compacted progress topic. */
    public Map<Integer, EmbeddingProgress> latestEmbedProgress(Duration timeout) {
        Map<Integer, EmbeddingProgress> latest = new TreeMap<>();
        readToEnd(Topics.INGEST_PROGRESS, timeout, r -> {
            if (r.value() == null) {
                return;
            }
            EmbeddingProgress progress = PROGRESS.tryDeserialize(r.value());
            if (progress == null) {
                report(r, "not an embedding progress record (Avro EmbeddingProgress expected)");
            } else if (!Topics.ingestProgressKey(progress.getPartition()).equals(r.key())) {
                report(r, "an embedding progress record whose key is not its own partition's");
            } else {
                latest.put(progress.getPartition(), progress);
            }
        });
        return latest;
    }

    /** What each query process last published about its store, by process, from the compacted store status topic. */
    public Map<String, StoreStatus> latestStoreStatus(Duration timeout) {
        Map<String, StoreStatus> latest = new TreeMap<>();
        readToEnd(Topics.STORE_STATUS, timeout, r -> {
            if (r.value() == null) {
                latest.remove(r.key());
                return;
            }
            ReplicaStatus status = REPLICA.tryDeserialize(r.value());
            if (status == null) {
                report(r, "not a store status (Avro ReplicaStatus expected)");
            } else if (!status.getInstance().equals(r.key())) {
                report(r, "a store status whose key is not its own instance");
            } else {
                latest.put(status.getInstance(), StoreStatus.of(status));
            }
        });
        return latest;
    }

    private void readToEnd(String topic, Duration timeout, Consumer<ConsumerRecord<String, byte[]>> each) {
        Properties p = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-status-reader");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = consumer.partitionsFor(topic, timeout).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(each);
            }
        }
    }

    private void report(ConsumerRecord<String, byte[]> r, String problem) {
        if (reported.add(r.topic() + "-" + r.partition() + "@" + r.offset())) {
            unreadable.skipped(new UnreadableRecord(r.topic(), r.partition(), r.offset(), null, null, CONSUMER_NAME, problem));
        }
    }

    /** Records of each change topic the ingest topology has not read yet (committed offset to end offset). */
    public Map<String, Long> ingestLag(String groupId, Set<String> topics) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> query = new LinkedHashMap<>();
            admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions()
                    .forEach(pi -> query.put(new TopicPartition(d.name(), pi.partition()), OffsetSpec.latest())));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(query).all().get();
            Map<String, Long> lag = new TreeMap<>();
            ends.forEach((tp, info) -> {
                OffsetAndMetadata c = committed.get(tp);
                lag.merge(tp.topic(), info.offset() - (c == null ? 0 : c.offset()), Long::sum);
            });
            return lag;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read consumer lag: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Records of each partition of {@code topic} that consumer group {@code groupId} has not read yet. */
    public Map<Integer, Long> partitionLag(String groupId, String topic) {
        Map<Integer, Long> end = endOffsets(topic);
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get();
            Map<Integer, Long> lag = new TreeMap<>();
            end.forEach((partition, offset) -> {
                OffsetAndMetadata c = committed.get(new TopicPartition(topic, partition));
                lag.put(partition, offset - (c == null ? 0 : c.offset()));
            });
            return lag;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read consumer lag: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** End offsets of the index log's partitions. */
    public Map<Integer, Long> endOffsets(String topic) {
        try {
            Map<TopicPartition, OffsetSpec> query = new LinkedHashMap<>();
            admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic).partitions()
                    .forEach(pi -> query.put(new TopicPartition(topic, pi.partition()), OffsetSpec.latest()));
            Map<Integer, Long> out = new TreeMap<>();
            admin.listOffsets(query).all().get().forEach((tp, info) -> out.put(tp.partition(), info.offset()));
            return out;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read end offsets of " + topic + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
