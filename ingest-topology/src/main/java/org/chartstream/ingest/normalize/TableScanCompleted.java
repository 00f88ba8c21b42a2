package org.chartstream.ingest.normalize;

import org.chartstream.core.store.TableRef;

/**
 * Debezium finished reading one table in its initial snapshot and sent this many rows. The row markers say the same
 * for every table but one: the first table of a snapshot when it has a single row (that row is marked {@code first},
 * never {@code last_in_data_collection}).
 *
 * @param sourceId the source
 * @param table    the table, as registered
 * @param rows     rows the snapshot read from it
 */
public record TableScanCompleted(String sourceId, String table, long rows) {

    public String tableKey() {
        return new TableRef(sourceId, table).id();
    }
}
