package org.chartstream.connectors;

import java.util.concurrent.atomic.AtomicLong;

/** What a runner's {@link KafkaHandOver} has handed to Kafka, read through the runner's getters. */
final class HandOverCounts {
    final AtomicLong recordsProduced = new AtomicLong();
    final AtomicLong tombstonesProduced = new AtomicLong();
    final AtomicLong notificationsProduced = new AtomicLong();
    final AtomicLong batchesCommitted = new AtomicLong();
    final AtomicLong fieldsTruncated = new AtomicLong();
    final AtomicLong changesSkipped = new AtomicLong();
    /** {@code topic-partition@offset} of the last record Kafka acknowledged, or {@code -}. */
    volatile String lastAcknowledged = "-";
}
