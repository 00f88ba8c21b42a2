package org.chartstream.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.RowEvents;
import org.chartstream.ingest.reindex.ReindexDriver;
import org.chartstream.ingest.state.PlannerState;
import org.chartstream.ingest.state.RowId;
import org.chartstream.ingest.status.TableStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows leaving a table's index with a generation: all of them at once (a truncate, a table gone from the source), or
 * those a published snapshot did not see. Their chunks go with the superseded generation; their kept images and their
 * place under their patient and their codes go here, and the table's counts follow.
 */
final class TableRetirement {
    private static final Logger LOG = LoggerFactory.getLogger(TableRetirement.class);
    private final Map<String, SourceRegistration> sources;
    private final PlannerState state;
    private final RowEvents rowEvents;
    private final ReindexDriver reindex;

    TableRetirement(Map<String, SourceRegistration> sources, PlannerState state, RowEvents rowEvents, ReindexDriver reindex) {
        this.sources = sources;
        this.state = state;
        this.rowEvents = rowEvents;
        this.reindex = reindex;
    }

    /**
     * Every row of the table leaves the index at once, as an empty generation published in one step; a generation
     * being built (a re-index) is abandoned.
     */
    TableStatus retire(TableRef table, TableStatus status, long timestamp) {
        GenerationPlanner.Plan plan = GenerationPlanner.truncated(state.generations().of(table));
        state.generations().put(table, plan.next());
        reindex.abandon(table);
        TableStatus after = dropRowsNotIn(table, plan.publish(), status);
        rowEvents.published(table, plan.publish(), 0, timestamp);
        LOG.info("table {} emptied: publishing empty generation {}", table, plan.publish());
        return after;
    }

    /**
     * A snapshot sees every row the source holds; rows kept from before that the snapshot did not see were deleted
     * while no change stream was read. Their chunks go with the superseded generation; their images go here.
     */
    TableStatus dropRowsNotIn(TableRef table, long generation, TableStatus status) {
        Map<RowId, RowImage> gone = new LinkedHashMap<>();
        state.rows().scan(table, null, (row, image) -> {
            if (image.generation() < generation) {
                gone.put(row, image);
            }
            return true;
        });
        SourceRegistration source = sources.get(table.sourceId());
        TableProjection projection = source.table(table.table()).orElseThrow();
        gone.forEach((row, image) -> {
            state.rows().delete(row);
            state.patients().childMoved(table.sourceId(), row.id(),
                    PatientIdentities.childPatientOf(source.patientIdentity(), projection, image), null);
            state.references().rowMoved(table.sourceId(), row.id(), projection, image.row(), null);
        });
        long chunks = gone.values().stream().mapToLong(RowImage::chunks).sum();
        long unresolved = gone.values().stream().mapToLong(RowImage::unresolved).sum();
        return status.withCounts(status.rows() - gone.size(), status.chunks() - chunks).withUnresolvedCodes(-unresolved);
    }
}
