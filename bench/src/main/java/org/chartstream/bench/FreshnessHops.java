package org.chartstream.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where the time of one single-row change goes, from its source commit to the store serving it: the wall-clock
 * instants (epoch ms) of each hop, and the per-hop percentiles over many changes. The hops add up to the whole.
 */
record FreshnessHops(long sourceCommitMs, long changeTopicMs, long ingestFlushMs, long indexWrittenMs, long indexCommittedMs,
                     long searchableMs) {
    /** The hop names, in pipeline order, as printed in {@code hops_ms}. */
    static final List<String> NAMES = List.of(
            "source_commit_to_change_topic",   // Debezium: WAL poll, envelope, produce (change record's timestamp)
            "change_topic_to_ingest_flush",    // ingest topology: normalise, project, chunk, wait for the linger punctuation
                                               // (the index upsert's timestamp: taken as the flush starts)
            "ingest_flush_to_index_written",   // embed the batch, produce the upsert (read_uncommitted arrival)
            "index_written_to_committed",      // the ingest transaction's commit (read_committed arrival)
            "index_committed_to_searchable");  // materializer: apply, store commit and refresh

    /** This change's hops in {@link #NAMES} order, in ms. */
    List<Long> hopsMs() {
        return List.of(changeTopicMs - sourceCommitMs, ingestFlushMs - changeTopicMs, indexWrittenMs - ingestFlushMs,
                indexCommittedMs - indexWrittenMs, searchableMs - indexCommittedMs);
    }

    long totalMs() {
        return searchableMs - sourceCommitMs;
    }

    /** The {@code p}-th percentile of each hop over the changes, by hop name in pipeline order. */
    static Map<String, Double> percentiles(List<FreshnessHops> changes, double p) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int hop = 0; hop < NAMES.size(); hop++) {
            List<Long> values = new ArrayList<>(changes.size());
            for (FreshnessHops change : changes) {
                values.add(change.hopsMs().get(hop));
            }
            values.sort(Long::compare);
            out.put(NAMES.get(hop), PipelineBenchRuntime.percentile(values, p));
        }
        return out;
    }

    /** {@code {"name":value, ...}} with whole milliseconds. */
    static String json(Map<String, Double> hops) {
        return hops.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "\"%s\":%.0f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
