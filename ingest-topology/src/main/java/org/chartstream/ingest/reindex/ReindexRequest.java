package org.chartstream.ingest.reindex;

import java.util.Optional;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.IngestCommand;
import org.chartstream.schemas.IngestControl;

/** An operator's request to rebuild one table's index as a new generation, read from the ingest control topic. */
public record ReindexRequest(String sourceId, String table) {

    public String tableKey() {
        return new TableRef(sourceId, table).id();
    }

    /** The request a control record carries, or empty if it carries another command or names no table. */
    public static Optional<ReindexRequest> of(IngestControl control) {
        if (control.getCommand() != IngestCommand.REINDEX || control.getSourceId().isEmpty() || control.getTableName().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ReindexRequest(control.getSourceId(), control.getTableName()));
    }
}
