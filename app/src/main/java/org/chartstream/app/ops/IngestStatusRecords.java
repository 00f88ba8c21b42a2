package org.chartstream.app.ops;

import org.chartstream.ingest.status.TableStatus;

/**
 * Reads one record of the compacted ingest status topic: a {@link TableStatus} keyed by its own
 * {@code source:table}, or why it is not one. The topic keeps the last record of every key for good, so a reader
 * that stopped on a bad one would stay broken; readers skip and report it instead.
 */
public final class IngestStatusRecords {
    /** Exactly one of {@code status} and {@code problem} is set, except for a tombstone (both null). */
    public record Read(String key, TableStatus status, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    private IngestStatusRecords() {
    }

    public static Read read(String key, String value) {
        if (value == null) {
            return new Read(key, null, null);
        }
        if (key == null || key.isEmpty()) {
            return new Read(key, null, "a table status without a key");
        }
        TableStatus status;
        try {
            status = TableStatus.decode(value);
        } catch (RuntimeException e) {
            return new Read(key, null, "not a table status (JSON object expected)");
        }
        if (status.sourceId().isEmpty() || status.table().isEmpty()) {
            return new Read(key, null, "a table status without 'source' or 'table'");
        }
        if (!key.equals(status.sourceId() + ":" + status.table())) {
            return new Read(key, null, "a table status whose key is not its own source:table");
        }
        return new Read(key, status, null);
    }
}
