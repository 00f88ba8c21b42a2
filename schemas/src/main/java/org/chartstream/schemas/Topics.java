package org.chartstream.schemas;

/** Names of the topics and headers the project owns, every one of them here (README.md, "Topics and payloads"). */
public final class Topics {
    public static final String REQUESTS = "chartstream.requests";
    public static final String REPLIES = "chartstream.replies";
    public static final String AUDIT = "chartstream.audit";
    public static final String DEAD_LETTER = "chartstream.dead-letter";
    /** The index replication log: embedded chunks and generation markers; every store materialises from it. */
    public static final String INDEX = "chartstream.index";
    /** Operator requests to the ingest topology ({@link IngestControl}, key {@code source:table}); one partition. */
    public static final String INGEST_CONTROL = "chartstream.ingest.control";
    /** Per-table ingest status ({@link IngestTableStatus}, compacted, key {@code source:table}). */
    public static final String INGEST_STATUS = "chartstream.ingest.status";
    /**
     * The ingest repartition topic between the per-table planner and the embedding tasks: index events without
     * vectors, keyed by row, markers on every partition.
     */
    public static final String INGEST_EMBED = "chartstream.ingest.embed";
    /** Per embedding task progress ({@link EmbeddingProgress}, compacted, key {@code embed-<partition>}). */
    public static final String INGEST_PROGRESS = "chartstream.ingest.progress";
    /** What each query process's store serves ({@link ReplicaStatus}, compacted, key: the process). */
    public static final String STORE_STATUS = "chartstream.store.status";

    public static final String HEADER_REPLY_TO = "reply-to";
    public static final String HEADER_CORRELATION_ID = "correlation-id";

    private Topics() {
    }

    /** The key of embedding partition {@code partition}'s record on {@link #INGEST_PROGRESS}. */
    public static String ingestProgressKey(int partition) {
        return "embed-" + partition;
    }
}
