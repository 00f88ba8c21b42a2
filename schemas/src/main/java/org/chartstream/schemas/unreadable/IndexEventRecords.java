package org.chartstream.schemas.unreadable;

import java.util.function.Function;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reads one value of a topic of {@link IndexEvent}s that anyone with broker access could write into (the index log,
 * the ingest repartition topic): the event, or why its reader cannot use it. Bytes that are not an IndexEvent and a
 * row event whose parts do not fit together are unreadable for every reader; each reader adds its own checks.
 */
public final class IndexEventRecords {
    private static final AvroSerde<IndexEvent> SERDE = AvroSerde.of(IndexEvent.class);

    /** Exactly one of {@code event} and {@code problem} is set, except for a tombstone (both null: nothing to do). */
    public record Read(IndexEvent event, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    private IndexEventRecords() {
    }

    /**
     * @param readerProblem the reader's own check of a decoded event whose row parts fit: null when it can use it, else
     *                      what is wrong (names fields, not values)
     */
    public static Read read(byte[] value, Function<IndexEvent, String> readerProblem) {
        if (value == null) {
            return new Read(null, null);
        }
        IndexEvent e;
        try {
            e = SERDE.deserialize("", value);
        } catch (RuntimeException ex) {
            Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
            return new Read(null, "not an IndexEvent (Avro single-object encoding): " + firstLine(cause.getMessage()));
        }
        String problem = rowProblem(e);
        if (problem == null) {
            problem = readerProblem.apply(e);
        }
        return problem == null ? new Read(e, null) : new Read(null, problem);
    }

    /** A row event without a row key, or an upsert holding chunks of another row; null when neither. */
    static String rowProblem(IndexEvent e) {
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

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
