package org.chartstream.replica;

import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reads one value of the index log: an {@link IndexEvent} the store can apply, or why it cannot be (bytes that are
 * not an IndexEvent, e.g. a reply event written into the log, or an event whose parts do not fit together).
 */
public final class IndexLogRecords {
    private static final AvroSerde<IndexEvent> SERDE = AvroSerde.of(IndexEvent.class);

    /** Exactly one of {@code event} and {@code problem} is set, except for a tombstone (both null: nothing to apply). */
    public record Read(IndexEvent event, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    private IndexLogRecords() {
    }

    /** @param contract the vector dimension and embedding model the store holds */
    public static Read read(byte[] value, IndexContract contract) {
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
        String problem = problem(e, contract);
        return problem == null ? new Read(e, null) : new Read(null, problem);
    }

    /** Null when the event can be applied as it is; else what is wrong with it (names fields, not values). */
    static String problem(IndexEvent e, IndexContract contract) {
        int dimension = contract.dimension();
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
            if (c.getVector().size() != c.getDimension() || (dimension > 0 && c.getDimension() != dimension)) {
                return "chunk " + c.getChunkIndex() + " has a vector of " + c.getVector().size() + " values (dimension "
                        + c.getDimension() + ", the store holds " + (dimension > 0 ? dimension : "any") + ")";
            }
            String model = contract.modelProblem(c.getModelId());
            if (model != null) {
                return "chunk " + c.getChunkIndex() + " was " + model;
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
