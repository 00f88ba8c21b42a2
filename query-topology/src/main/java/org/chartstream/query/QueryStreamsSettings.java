package org.chartstream.query;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The query topology's own Kafka Streams settings, over the connection and group settings a process gives every
 * topology: exactly-once, its commit interval ({@code query.commit-interval-ms}; replies do not wait for it), a short
 * poll ({@code query.poll-ms}), and a transaction timeout of at least twice the commit interval: Kafka Streams refuses
 * a commit interval longer than the transaction timeout (10 s by default).
 */
public record QueryStreamsSettings(long commitIntervalMs, long pollMs) {
    /** Kafka Streams' own transaction timeout under exactly-once. */
    static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 10_000;

    public Map<String, String> properties() {
        long transactionTimeoutMs = Math.max(DEFAULT_TRANSACTION_TIMEOUT_MS, 2 * commitIntervalMs);
        return Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2,
                StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs),
                StreamsConfig.POLL_MS_CONFIG, Long.toString(pollMs),
                StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), Long.toString(transactionTimeoutMs));
    }
}
