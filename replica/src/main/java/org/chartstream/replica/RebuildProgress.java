package org.chartstream.replica;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Progress of replaying the index log into a store that opened empty because its old index was discarded
 * ({@link org.chartstream.core.store.HybridStore#rebuildReason()}): the log end at the start is the goal.
 *
 * @param begin each partition's first offset when the replay started
 * @param target log records (all partitions) between the beginning and the end offsets when the replay started
 * @param startNanos when the replay started ({@link System#nanoTime()})
 */
record RebuildProgress(Map<TopicPartition, Long> begin, long target, long startNanos) {

    /** One progress line: log records replayed of the target, share and rate. No record content. */
    String line(long replayed, long nowNanos) {
        double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
        double share = target == 0 ? 100 : Math.min(100, 100.0 * replayed / target);
        return String.format(Locale.ROOT, "rebuilding the index from the index log: %,d of %,d log records (%.0f %%), %.0f s, %.0f records/s",
                replayed, target, share, seconds, replayed / seconds);
    }

    boolean done(long replayed) {
        return replayed >= target;
    }
}
