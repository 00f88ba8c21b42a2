package org.chartstream.ingest.reindex;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.RowEvents;
import org.chartstream.ingest.publish.TableGenerations;
import org.chartstream.ingest.state.PlannerState;
import org.chartstream.ingest.state.RowId;
import org.chartstream.ingest.status.TableStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a table as a new generation from its kept row images, in key order, one embedding batch's worth of chunks
 * at a time, while streaming changes keep flowing to both the active and the staged generation. A
 * {@link ReindexCursor} per table says how far the rebuild has read, so a restart goes on from there; the generation
 * is published once the last kept row has been written.
 */
public final class ReindexDriver {
    private static final Logger LOG = LoggerFactory.getLogger(ReindexDriver.class);

    private final Map<String, SourceRegistration> sources;
    private final PlannerState state;
    private final RowEvents rowEvents;
    private final int batchChunks;

    /** @param batchChunks chunks a rebuild writes before it looks at the clock again */
    public ReindexDriver(Map<String, SourceRegistration> sources, PlannerState state, RowEvents rowEvents, int batchChunks) {
        this.sources = sources;
        this.state = state;
        this.rowEvents = rowEvents;
        this.batchChunks = batchChunks;
    }

    /** Opens the re-index generation of a registered table that has one published and none being built. */
    public void start(ReindexRequest request) {
        SourceRegistration source = sources.get(request.sourceId());
        TableRef table = new TableRef(request.sourceId(), request.table());
        if (source == null || source.table(request.table()).isEmpty()) {
            LOG.warn("re-index request for {} ignored: not a registered table", table);
            return;
        }
        if (source.table(request.table()).get().binding().role() == TableRole.DICTIONARY) {
            LOG.warn("re-index request for {} ignored: a dictionary's rows are not indexed (the rows using its codes are)", table);
            return;
        }
        TableGenerations generations = state.generations().of(table);
        GenerationPlanner.startReindex(generations).ifPresentOrElse(next -> {
            state.generations().put(table, next);
            state.cursors().put(table, new ReindexCursor(next.staged(), ""));
            state.statuses().touch(table.id());
            LOG.info("re-indexing {} as generation {} (active {})", table, next.staged(), next.active());
        }, () -> LOG.warn("re-index request for {} ignored: nothing published yet or generation {} still being built",
                table, generations.staged()));
    }

    /** True while the table's staged generation is a re-index's (complete when its cursor reaches the end). */
    public boolean rebuilding(TableRef table) {
        return state.cursors().of(table) != null;
    }

    /** Stops the table's re-index: the rows it was built from are gone. */
    public void abandon(TableRef table) {
        state.cursors().delete(table);
    }

    /**
     * Rebuilds re-indexed tables a batch at a time for at most {@code budget}, then lets changes flow again.
     *
     * @return whether any re-index was open
     */
    public boolean advance(Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        Map<TableRef, ReindexCursor> open = state.cursors().open();
        open.forEach((table, first) -> {
            ReindexCursor cursor = first;
            while (cursor != null && System.nanoTime() < deadline) {
                cursor = writeBatch(table, cursor);
            }
        });
        return !open.isEmpty();
    }

    /** Writes the next batch of row images into the re-index generation; null once the generation is published. */
    private ReindexCursor writeBatch(TableRef table, ReindexCursor cursor) {
        TableGenerations generations = state.generations().of(table);
        SourceRegistration source = sources.get(table.sourceId());
        if (generations.staged() != cursor.generation() || source == null || source.table(table.table()).isEmpty()) {
            state.cursors().delete(table); // superseded by a snapshot, or the table is no longer registered
            return null;
        }
        TableProjection projection = source.table(table.table()).get();
        Map<RowId, RowImage> written = new LinkedHashMap<>();
        int[] chunksWritten = {0};
        state.rows().scan(table, cursor.lastKey().isEmpty() ? null : RowId.parse(cursor.lastKey()), (row, image) -> {
            RowChunks chunks = rowEvents.chunk(row, projection, image);
            rowEvents.upsert(chunks, cursor.generation());
            // a row indexed before the patient-children index existed joins it here, so that a rename reaches it
            String patientId = PatientIdentities.childPatientOf(source.patientIdentity(), projection, image);
            state.patients().childMoved(table.sourceId(), row.id(), patientId, patientId);
            written.put(row, image.writtenTo(chunks.count(), cursor.generation()));
            chunksWritten[0] += chunks.count();
            return chunksWritten[0] < batchChunks;
        });
        TableStatus status = state.statuses().of(table.id(), table.sourceId(), table.table());
        long chunkDelta = 0;
        List<RowId> rows = new ArrayList<>(written.keySet());
        for (RowId row : rows) {
            chunkDelta += written.get(row).chunks() - state.rows().get(row).chunks();
            state.rows().put(row, written.get(row));
        }
        status = status.withCounts(status.rows(), status.chunks() + chunkDelta);
        if (!rows.isEmpty() && chunksWritten[0] >= batchChunks) {
            ReindexCursor next = cursor.advancedTo(rows.get(rows.size() - 1).id());
            state.cursors().put(table, next);
            state.statuses().put(table.id(), status);
            return next;
        }
        rowEvents.published(table, cursor.generation(), status.rows(), System.currentTimeMillis());
        state.generations().put(table, GenerationPlanner.published(generations));
        state.cursors().delete(table);
        state.statuses().put(table.id(), status);
        LOG.info("re-index of {} complete: publishing generation {}", table, cursor.generation());
        return null;
    }
}
