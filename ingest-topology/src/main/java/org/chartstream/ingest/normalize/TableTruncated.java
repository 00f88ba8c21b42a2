package org.chartstream.ingest.normalize;

import org.chartstream.core.store.TableRef;

/**
 * A {@code TRUNCATE} of a registered table (Debezium {@code op=t}: no key, no row images): every row of the table
 * leaves the index at once, as an empty generation published in one step.
 *
 * @param position   the source position of the truncate (LSN, binlog file:pos)
 * @param commitTsMs its source commit time
 */
public record TableTruncated(String sourceId, String schema, String table, String position, long commitTsMs) {
    /** {@code source:table}, the key of the table's generation state. */
    public String tableKey() {
        return new TableRef(sourceId, table).id();
    }
}
