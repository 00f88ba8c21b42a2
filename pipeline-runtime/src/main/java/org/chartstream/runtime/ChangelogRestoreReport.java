package org.chartstream.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Says in the log how many records a Kafka Streams client restored into each state store from its changelog, per
 * partition, with the time it took: after a clean stop a restart restores nothing it had checkpointed, so a line here
 * means a store was rebuilt (a crash, a lost state directory, a task moved from another instance). Only counts and
 * store names are logged, never a record.
 */
final class ChangelogRestoreReport implements StateRestoreListener {
    private final String applicationId;
    private final Consumer<String> progress;
    private final Map<TopicPartition, Long> startedNanos = new ConcurrentHashMap<>();

    ChangelogRestoreReport(String applicationId, Consumer<String> progress) {
        this.applicationId = applicationId;
        this.progress = progress;
    }

    @Override
    public void onRestoreStart(TopicPartition changelog, String storeName, long startingOffset, long endingOffset) {
        startedNanos.put(changelog, System.nanoTime());
    }

    @Override
    public void onBatchRestored(TopicPartition changelog, String storeName, long batchEndOffset, long numRestored) {
        // the total is reported at the end
    }

    @Override
    public void onRestoreEnd(TopicPartition changelog, String storeName, long totalRestored) {
        Long started = startedNanos.remove(changelog);
        if (totalRestored > 0) {
            long ms = started == null ? 0 : (System.nanoTime() - started) / 1_000_000;
            progress.accept(String.format("%s: store %s (partition %d) restored %d records from its changelog in %d ms",
                    applicationId, storeName, changelog.partition(), totalRestored, ms));
        }
    }
}
