package org.chartstream.ingest.publish;

import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.chartstream.schemas.IndexEvent;

/**
 * Sends every index event of the embedding task of repartition partition {@code partition} to index-log partition
 * {@code partition}, markers included. Its rows are the rows whose key hashes there ({@link IndexEventPartitioner}
 * routes both topics with the same function and the same count), so each index-log partition still gets every row of
 * its keys followed by the marker, from exactly one writer, as when one task wrote the whole log.
 */
public final class OwnPartition implements StreamPartitioner<String, IndexEvent> {
    private final int partition;
    private final int expected;

    /** @param expected partitions of the repartition topic, which the index log must have too */
    public OwnPartition(int partition, int expected) {
        this.partition = partition;
        this.expected = expected;
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, IndexEvent value, int numPartitions) {
        if (numPartitions != expected) {
            throw new IllegalStateException(topic + " has " + numPartitions + " partition(s) but the embedding is spread over "
                    + expected + " (ingest.partitions): the two must be equal, else a generation's marker would not follow its rows");
        }
        return Optional.of(Set.of(partition));
    }
}
