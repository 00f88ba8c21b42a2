package org.chartstream.ingest;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The ingest topology's own Kafka Streams settings, over the connection and group settings a process gives every
 * topology: exactly-once; its commit interval ({@code ingest.commit-interval-ms}); a poll timeout of
 * {@code ingest.quiet-ms}, so that an idle stream thread wakes up to check the embedding buffer (a wall-clock
 * punctuation runs only between polls; Kafka Streams' default poll.ms is 100); and its stream threads
 * ({@code ingest.stream-threads}): with one, the planner task and the process's embedding tasks share a thread, so
 * the planner, which feeds every ingest process, stops for each of its process's embedding calls. And
 * {@value #MAX_TASK_IDLE_MS} ms of {@code max.task.idle.ms}: the planner reads every change topic in one task, in
 * timestamp order while each partition has records fetched; with Kafka Streams' default (0) it does not wait for a
 * producer still writing a partition that was caught up at its last fetch, the likely way a snapshot's encounters
 * were read before their patients (bench scaleout, 2026-12-01: 88 of 499 encounters indexed without their patient's
 * name in one run, all named in the next). The wait applies only while a partition has just drained.
 */
public record IngestStreamsSettings(long commitIntervalMs, long quietMs, int streamThreads) {
    /** Longest wait for a change topic that just drained (a bound on a fetch's stale lag, not tuned on data). */
    public static final long MAX_TASK_IDLE_MS = 200;

    public Map<String, String> properties() {
        return Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2,
                StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs),
                StreamsConfig.POLL_MS_CONFIG, Long.toString(quietMs),
                StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(streamThreads),
                StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, Long.toString(MAX_TASK_IDLE_MS));
    }
}
