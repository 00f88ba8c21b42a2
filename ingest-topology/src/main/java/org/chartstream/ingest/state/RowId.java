package org.chartstream.ingest.state;

import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.TableRef;

/**
 * A row as the ingest carries it, keyed {@link RowRef#id(String, String, String)}: core's {@link RowRef} without its
 * refusal of an empty primary key, which a source table may hold (the ingest passes such a row on; the replica
 * dead-letters it).
 */
public record RowId(String sourceId, String table, String rowKey) {

    /** {@code source:table:rowKey}. */
    public String id() {
        return RowRef.id(sourceId, table, rowKey);
    }

    public TableRef tableRef() {
        return new TableRef(sourceId, table);
    }

    /** The row whose {@link #id()} is {@code id}: split at the first two colons (source ids and table names have none). */
    public static RowId parse(String id) {
        String[] parts = id.split(":", 3);
        if (parts.length < 3) {
            throw new IllegalArgumentException("not source:table:rowKey: " + id);
        }
        return new RowId(parts[0], parts[1], parts[2]);
    }

    @Override
    public String toString() {
        return id();
    }
}
