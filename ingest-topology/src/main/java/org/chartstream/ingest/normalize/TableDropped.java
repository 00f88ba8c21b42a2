package org.chartstream.ingest.normalize;

import java.util.Optional;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.IngestCommand;
import org.chartstream.schemas.IngestControl;

/**
 * A registered table found gone from the source's catalog by the capturing process (a {@code DROP TABLE} or a
 * rename: logical decoding and the binlog carry no row change for either). Every row of the table leaves the index
 * at once, as after a {@link TableTruncated}, and the table's status says it was dropped.
 *
 * @param noticedMs when the capturing process found the table missing
 */
public record TableDropped(String sourceId, String table, long noticedMs) {
    public String tableKey() {
        return new TableRef(sourceId, table).id();
    }

    /** The notice a control record carries, or empty if it carries another command or names no table. */
    public static Optional<TableDropped> of(IngestControl control) {
        if (control.getCommand() != IngestCommand.TABLE_DROPPED || control.getSourceId().isEmpty() || control.getTableName().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TableDropped(control.getSourceId(), control.getTableName(), control.getRequestedMs()));
    }

    /** The control record that carries this notice (key: {@link #tableKey()}). */
    public IngestControl toControl() {
        return IngestControl.newBuilder().setCommand(IngestCommand.TABLE_DROPPED).setSourceId(sourceId).setTableName(table)
                .setRequestedMs(noticedMs).build();
    }
}
