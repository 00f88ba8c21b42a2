package org.chartstream.app.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Consumer lag as operators alert on it, refreshed at each scrape: per consumer group and topic the records between
 * the group's committed offsets and the end of the log ({@code chartstream.consumer.lag}), and per index-log
 * partition the records the store has not committed yet ({@code chartstream.index.store.lag}). The Kafka clients'
 * own fetch metrics ({@code kafka_consumer_fetch_manager_records_lag*}) are exported as well, but appear only once
 * a client has fetched and the binder has refreshed.
 */
final class ConsumerLag implements AutoCloseable {
    private static final long TIMEOUT_MS = 2_000;
    private final Admin admin;
    private final List<String> groups;
    private final String indexTopic;
    private final Supplier<Map<Integer, Long>> storePositions;
    private final MultiGauge groupLag;
    private final MultiGauge storeLag;

    /**
     * @param storePositions per index-log partition, the offset up to which the store has committed
     */
    ConsumerLag(MeterRegistry registry, String bootstrapServers, Map<String, String> clientOverrides, List<String> groups,
                String indexTopic, Supplier<Map<Integer, Long>> storePositions) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-ops-lag");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT_MS));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT_MS));
        this.admin = Admin.create(p);
        this.groups = groups;
        this.indexTopic = indexTopic;
        this.storePositions = storePositions;
        this.groupLag = MultiGauge.builder("chartstream.consumer.lag").baseUnit("records")
                .description("records between a consumer group's committed offsets and the end of the topic").register(registry);
        this.storeLag = MultiGauge.builder("chartstream.index.store.lag").baseUnit("records")
                .description("index-log records the store has not committed yet").register(registry);
    }

    /** Reads the offsets now; on a broker that does not answer in time the previous values stay. */
    void refresh() {
        try {
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            for (String group : groups) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                Map<TopicPartition, Long> ends = endOffsets(committed.keySet().stream().toList());
                Map<String, Long> byTopic = new TreeMap<>();
                committed.forEach((tp, offset) -> byTopic.merge(tp.topic(),
                        Math.max(0, ends.getOrDefault(tp, 0L) - (offset == null ? 0 : offset.offset())), Long::sum));
                byTopic.forEach((topic, lag) -> rows.add(MultiGauge.Row.of(Tags.of("group", group, "topic", topic), lag)));
            }
            groupLag.register(rows, true);
            Map<Integer, Long> positions = storePositions.get();
            List<TopicPartition> partitions = positions.keySet().stream().map(p -> new TopicPartition(indexTopic, p)).toList();
            Map<TopicPartition, Long> ends = endOffsets(partitions);
            List<MultiGauge.Row<?>> store = new ArrayList<>();
            positions.forEach((partition, position) -> store.add(MultiGauge.Row.of(Tags.of("topic", indexTopic,
                    "partition", Integer.toString(partition)), Math.max(0, ends.getOrDefault(new TopicPartition(indexTopic, partition), 0L) - position))));
            storeLag.register(store, true);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // a scrape still answers with the last known lag; readiness reports a broker that is gone
        }
    }

    private Map<TopicPartition, Long> endOffsets(List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        partitions.forEach(tp -> query.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, Long> out = new HashMap<>();
        if (query.isEmpty()) {
            return out;
        }
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                : admin.listOffsets(query).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).entrySet()) {
            out.put(e.getKey(), e.getValue().offset());
        }
        return out;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
