package org.chartstream.ingest.publish;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;

/**
 * Rows go to the partition of their key; generation markers go to every partition, so a store materialising the
 * log publishes a generation only after it has read the marker behind every partition's share of the rows.
 */
public final class IndexEventPartitioner implements org.apache.kafka.streams.processor.StreamPartitioner<String, IndexEvent> {
    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, IndexEvent value, int numPartitions) {
        if (value != null && value.getKind() == IndexEventKind.MARKER) {
            return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toSet()));
        }
        int p = Utils.toPositive(Utils.murmur2(key.getBytes(java.nio.charset.StandardCharsets.UTF_8))) % numPartitions;
        return Optional.of(Set.of(p));
    }
}
