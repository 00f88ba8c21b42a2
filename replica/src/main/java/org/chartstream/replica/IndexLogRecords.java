package org.chartstream.replica;

import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.unreadable.IndexEventRecords;

/**
 * Reads one value of the index log: an {@link IndexEvent} the store can apply, or why it cannot be (bytes that are
 * not an IndexEvent, e.g. a reply event written into the log, or an event whose parts do not fit together,
 * {@link IndexEventRecords}; or vectors the store cannot hold).
 */
public final class IndexLogRecords {
    private IndexLogRecords() {
    }

    /** @param contract the vector dimension and embedding model the store holds */
    public static IndexEventRecords.Read read(byte[] value, IndexContract contract) {
        return IndexEventRecords.read(value, e -> problem(e, contract));
    }

    /** Null when the store can apply the event's vectors; else what is wrong with them (names fields, not values). */
    static String problem(IndexEvent e, IndexContract contract) {
        if (e.getKind() != IndexEventKind.UPSERT_ROW) {
            return null;
        }
        int dimension = contract.dimension();
        for (ChunkRecord c : e.getChunks()) {
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
}
