package org.chartstream.ingest.embed;

import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reads one value of the ingest repartition topic ({@code chartstream.ingest.embed}): an {@link IndexEvent} the
 * embedding task can embed and forward, or why it cannot be. The planner writes the topic, but anyone with access to
 * the broker can write into it; a record the task could not read would stop it for good (it reads the same offset
 * again after every restart), so the task skips such a record and dead-letters it.
 */
public final class EmbedTopicRecords {
    private static final AvroSerde<IndexEvent> SERDE = AvroSerde.of(IndexEvent.class);

    /** Exactly one of {@code event} and {@code problem} is set, except for a tombstone (both null: nothing to embed). */
    public record Read(IndexEvent event, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    private EmbedTopicRecords() {
    }

    public static Read read(byte[] value) {
        if (value == null) {
            return new Read(null, null);
        }
        IndexEvent e;
        try {
            e = SERDE.deserialize("", value);
        } catch (RuntimeException ex) {
            Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
            String message = String.valueOf(cause.getMessage());
            return new Read(null, "not an IndexEvent (Avro single-object encoding): " + message.lines().findFirst().orElse(""));
        }
        String problem = problem(e);
        return problem == null ? new Read(e, null) : new Read(null, problem);
    }

    /** Null when the event can be embedded as it is; else what is wrong with it (names fields, not values). */
    static String problem(IndexEvent e) {
        if (e.getKind() != IndexEventKind.MARKER && (e.getRowKey() == null || e.getRowKey().isEmpty())) {
            return e.getKind() + " event without a row_key";
        }
        if (e.getKind() != IndexEventKind.UPSERT_ROW) {
            return null;
        }
        for (ChunkRecord c : e.getChunks()) {
            if (!c.getSourceId().equals(e.getSourceId()) || !c.getTableName().equals(e.getTableName())
                    || !c.getRowKey().equals(e.getRowKey())) {
                return "chunk " + c.getChunkIndex() + " belongs to another row than its UPSERT_ROW event";
            }
        }
        return null;
    }
}
