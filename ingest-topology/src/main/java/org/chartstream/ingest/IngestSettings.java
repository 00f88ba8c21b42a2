package org.chartstream.ingest;

import java.time.Duration;
import java.util.List;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.VectorCache;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.schemas.Topics;

/**
 * @param batchChunks  chunks per embedding call (a batch is embedded when this many are pending)
 * @param linger       longest time a pending chunk waits for its batch to fill
 * @param quiet        how long the input stays silent before a partial batch is embedded ({@link FlushRule}); also
 *                     the period at which the topology checks that
 * @param controlTopic operator requests (re-index a table); one partition, read by the task that owns the tables
 * @param statusTopic  per-table ingest status (compacted, key {@code source:table}), for {@code chartstream status}
 * @param maxFieldBytes the most UTF-8 bytes a field of a change keeps ({@code ingest.max-field-bytes}); longer values
 *                      are truncated (and named in a dead letter)
 * @param maxRecordBytes the largest record the topology may write ({@code kafka.max-record-bytes}): a row whose index
 *                       record would be larger is not indexed in that version (dead letter) instead of failing the
 *                       transaction
 * @param embedTopic     the repartition topic between the per-table planner and the embedding tasks: index events
 *                       without vectors, keyed by row, markers on every partition
 * @param partitions     partitions of {@code embedTopic} ({@code ingest.partitions}), equal to the index log's: the
 *                       embedding task of partition p writes only index-log partition p
 * @param progressTopic  per embedding task progress (compacted, key {@code embed-<partition>}), for {@code chartstream status}
 * @param instance       the name this process reports its embedding tasks' progress under
 * @param vectorCacheTexts texts whose vectors this process keeps ({@code ingest.vector-cache-texts}; 0: none), so
 *                       a text is embedded once
 */
public record IngestSettings(List<SourceRegistration> sources, int batchChunks, Duration linger, Duration quiet,
                             String indexTopic, String deadLetterTopic, String controlTopic, String statusTopic,
                             int maxFieldBytes, int maxRecordBytes, String embedTopic, int partitions,
                             String progressTopic, String instance, int vectorCacheTexts) {
    /** The default {@code ingest.max-field-bytes}: 1 MiB. */
    public static final int DEFAULT_MAX_FIELD_BYTES = 1 << 20;
    /** The default {@code kafka.max-record-bytes}: 16 MiB. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 16 << 20;
    /** The default {@code ingest.quiet-ms}. */
    public static final Duration DEFAULT_QUIET = Duration.ofMillis(10);

    public IngestSettings {
        sources = List.copyOf(sources);
        new FlushRule(batchChunks, quiet, linger); // validates them
        if (maxFieldBytes < 1 || maxRecordBytes <= maxFieldBytes) {
            throw new IllegalArgumentException("need 0 < field cap < record limit, got " + maxFieldBytes + " and " + maxRecordBytes);
        }
        if (vectorCacheTexts < 0) {
            throw new IllegalArgumentException("need a vector cache of 0 or more texts, got " + vectorCacheTexts);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("need at least one embedding partition, got " + partitions);
        }
    }

    public IngestSettings(List<SourceRegistration> sources, int batchChunks, Duration linger,
                          String indexTopic, String deadLetterTopic, String controlTopic, String statusTopic) {
        this(sources, batchChunks, linger, DEFAULT_QUIET, indexTopic, deadLetterTopic, controlTopic, statusTopic,
                DEFAULT_MAX_FIELD_BYTES, DEFAULT_MAX_RECORD_BYTES, Topics.INGEST_EMBED, 1, Topics.INGEST_PROGRESS, "local",
                VectorCache.DEFAULT_CAPACITY);
    }

    /** The same settings with another field cap and record limit. */
    public IngestSettings withLimits(int fieldBytes, int recordBytes) {
        return new IngestSettings(sources, batchChunks, linger, quiet, indexTopic, deadLetterTopic, controlTopic, statusTopic,
                fieldBytes, recordBytes, embedTopic, partitions, progressTopic, instance, vectorCacheTexts);
    }

    /** The same settings with another quiet time. */
    public IngestSettings withQuiet(Duration newQuiet) {
        return new IngestSettings(sources, batchChunks, linger, newQuiet, indexTopic, deadLetterTopic, controlTopic, statusTopic,
                maxFieldBytes, maxRecordBytes, embedTopic, partitions, progressTopic, instance, vectorCacheTexts);
    }

    /** The same settings keeping the vectors of {@code texts} texts (0: none). */
    public IngestSettings withVectorCache(int texts) {
        return new IngestSettings(sources, batchChunks, linger, quiet, indexTopic, deadLetterTopic, controlTopic, statusTopic,
                maxFieldBytes, maxRecordBytes, embedTopic, partitions, progressTopic, instance, texts);
    }

    /** The same settings with {@code count} embedding partitions, this process reporting as {@code name}. */
    public IngestSettings withEmbedding(int count, String name) {
        return new IngestSettings(sources, batchChunks, linger, quiet, indexTopic, deadLetterTopic, controlTopic, statusTopic,
                maxFieldBytes, maxRecordBytes, embedTopic, count, progressTopic, name, vectorCacheTexts);
    }

    /** When the embedding buffer's pending events go out. */
    public FlushRule flushRule() {
        return new FlushRule(batchChunks, quiet, linger);
    }

    public IngestSettings(List<SourceRegistration> sources, int batchChunks, Duration linger,
                          String indexTopic, String deadLetterTopic) {
        this(sources, batchChunks, linger, indexTopic, deadLetterTopic, Topics.INGEST_CONTROL, Topics.INGEST_STATUS);
    }

    public static IngestSettings defaults(List<SourceRegistration> sources) {
        return new IngestSettings(sources, 64, Duration.ofMillis(500), Topics.INDEX, Topics.DEAD_LETTER);
    }
}
