package org.chartstream.app.audit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.client.KafkaClientProperties;

/**
 * Reads the committed records of a topic whose timestamps lie in a window: seeks every partition to the first
 * offset at or after the window's start and reads up to the end offsets taken when the read began. Values stay
 * bytes so one undecodable record (the request topic also carries bad input) cannot stop the read.
 */
public final class TopicReader {
    private final String bootstrapServers;
    private final Map<String, ?> clientOverrides;

    /** @param clientOverrides further client settings, e.g. the transport security of an external broker */
    public TopicReader(String bootstrapServers, Map<String, ?> clientOverrides) {
        this.bootstrapServers = bootstrapServers;
        this.clientOverrides = clientOverrides;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Map<String, ?> clientOverrides() {
        return clientOverrides;
    }

    /** Records of {@code topic} with timestamp in {@code window}, in offset order per partition; empty if no such topic. */
    public List<ConsumerRecord<String, byte[]>> read(String topic, TimeWindow window) {
        Properties p = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-log-reader");
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.listTopics(Duration.ofSeconds(30)).get(topic);
            if (infos == null || infos.isEmpty()) {
                return out;
            }
            List<TopicPartition> partitions = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            Map<TopicPartition, Long> startAt = new HashMap<>();
            partitions.forEach(tp -> startAt.put(tp, window.from().toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(startAt, Duration.ofSeconds(30));
            List<TopicPartition> open = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp first = start.get(tp);
                long from = first == null ? end.get(tp) : first.offset();
                consumer.seek(tp, from);
                if (from < end.get(tp)) {
                    open.add(tp);
                }
            }
            while (!open.isEmpty()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition())) && window.contains(r.timestamp())) {
                        out.add(r);
                    }
                }
                open.removeIf(tp -> consumer.position(tp) >= end.get(tp));
            }
        }
        return out;
    }
}
