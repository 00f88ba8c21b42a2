package org.chartstream.app.pipeline;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.app.ops.IngestStatusRecords;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.ingest.IngestSettings;
import org.chartstream.ingest.reindex.ReindexRequest;
import org.chartstream.ingest.status.EmbedProgress;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecords;

/**
 * Talks to a running pipeline through Kafka: its ingest status topic, consumer lag, and re-index requests. A status
 * record it cannot read is skipped and reported once per reader (by default on stderr, offset and reason only: a
 * read-only command does not dead-letter what the compacted topic will show it again next time).
 */
public final class IngestStatusReader implements AutoCloseable {
    /** The name it reports skipped status records under. */
    public static final String CONSUMER_NAME = "status-reader";
    private final String bootstrapServers;
    private final Map<String, ?> clientOverrides;
    private final Admin admin;
    private final UnreadableRecords unreadable;
    private final Set<String> reported = new java.util.HashSet<>();

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
    public Map<String, TableStatus> latestTableStatus(Duration timeout) {
        Map<String, TableStatus> latest = new TreeMap<>();
        readToEnd(IngestSettings.STATUS_TOPIC, timeout, r -> {
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
    public Map<Integer, EmbedProgress> latestEmbedProgress(Duration timeout) {
        Map<Integer, EmbedProgress> latest = new TreeMap<>();
        readToEnd(IngestSettings.PROGRESS_TOPIC, timeout, r -> {
            if (r.value() == null) {
                return;
            }
            try {
                EmbedProgress progress = EmbedProgress.decode(r.value());
                if (!EmbedProgress.key(progress.partition()).equals(r.key())) {
                    report(r, "an embedding progress record whose key is not its own partition's");
                } else {
                    latest.put(progress.partition(), progress);
                }
            } catch (IllegalArgumentException e) {
                report(r, "not an embedding progress record (JSON object expected)");
            }
        });
        return latest;
    }

    private void readToEnd(String topic, Duration timeout, java.util.function.Consumer<ConsumerRecord<String, String>> each) {
        Properties p = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-status-reader");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
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

    private void report(ConsumerRecord<String, String> r, String problem) {
        if (reported.add(r.partition() + "@" + r.offset())) {
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

    /** Asks the running ingest topology to rebuild one table as a new generation. */
    public static void requestReindex(String bootstrapServers, ReindexRequest request) {
        requestReindex(bootstrapServers, Map.of(), request);
    }

    /** The same through a broker that needs further client settings (transport security). */
    public static void requestReindex(String bootstrapServers, Map<String, ?> clientOverrides, ReindexRequest request) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(IngestSettings.CONTROL_TOPIC, request.tableKey(), ReindexRequest.COMMAND)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot send the re-index request: " + e.getCause(), e.getCause());
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
