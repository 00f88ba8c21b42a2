package org.chartstream.ingest;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.lookup.RowReferences;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.IndexRecordSize;
import org.chartstream.ingest.publish.RowEvents;
import org.chartstream.ingest.state.PlannerState;
import org.chartstream.ingest.state.RowId;
import org.chartstream.ingest.status.TableStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kept rows chunked again because what their text takes from other tables changed: their patient's row was read
 * after them or their patient's name or number changed ({@link PatientIdentities}), a code they look up arrived in,
 * changed in or left its dictionary, or the encounter they reach their patient through arrived or changed patient
 * ({@link RowReferences}). Each is rendered as those tables hold it now and written again to the newest generation it
 * was written to (an older one it may also be in is superseded when that one publishes); the table's chunk and
 * unresolved-code counts follow. A row deleted or emptied since is skipped.
 */
final class RowsChunkedAgain {
    private static final Logger LOG = LoggerFactory.getLogger(RowsChunkedAgain.class);
    private final Map<String, SourceRegistration> sources;
    private final PlannerState state;
    private final RowEvents rowEvents;
    private final int dimension;
    private final int maxRecordBytes;

    RowsChunkedAgain(Map<String, SourceRegistration> sources, PlannerState state, RowEvents rowEvents, int dimension,
                     int maxRecordBytes) {
        this.sources = sources;
        this.state = state;
        this.rowEvents = rowEvents;
        this.dimension = dimension;
        this.maxRecordBytes = maxRecordBytes;
    }

    /**
     * Chunks the rows of renamed patients, changed codes and changed encounters again, a row at a time, for at most
     * {@code budget}: more than that goes on at the next punctuation, so one loop of the stream thread re-emits only
     * what it can chunk in the budget (plus the row under way when it ran out) and stays inside the transaction
     * timeout.
     *
     * @return whether any row was chunked
     */
    boolean advance(Duration budget) {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        int rowsChunked = 0;
        while (System.nanoTime() < deadline) {
            Optional<String> next = state.patients().nextRenamedChild().map(PatientIdentities.RenamedChild::rowStoreKey)
                    .or(() -> state.references().nextChanged());
            if (next.isEmpty()) {
                break;
            }
            chunkAgain(RowId.parse(next.get()));
            rowsChunked++;
        }
        if (rowsChunked > 0) {
            LOG.info("{} rows whose patient, codes or encounter changed chunked again in {} ms", rowsChunked,
                    (System.nanoTime() - start) / 1_000_000);
        }
        return rowsChunked > 0;
    }

    /** Chunks one kept row again as the tables it takes from hold them now. */
    void chunkAgain(RowId row) {
        RowImage image = state.rows().get(row);
        SourceRegistration source = sources.get(row.sourceId());
        if (image == null || source == null || source.table(row.table()).isEmpty()) {
            return;
        }
        TableProjection projection = source.table(row.table()).orElseThrow();
        if (RowProjector.body(projection, image.row()).isEmpty()) {
            return;
        }
        RowReferences.Rendered rendered = state.references().render(row.sourceId(), projection, image.row());
        RowImage now = image.rendered(rendered.unresolved(), viaPatientOf(row.sourceId(), projection, image.row()));
        RowChunks chunks = rowEvents.chunkRendered(row, projection, now, rendered.row());
        if (IndexRecordSize.upperBound(chunks, dimension) > maxRecordBytes) {
            return; // the row as indexed stays: a longer text must not turn a written row into a dead letter
        }
        rowEvents.upsert(chunks, image.generation());
        state.rows().put(row, now.writtenTo(chunks.count(), image.generation()));
        state.patients().childMoved(row.sourceId(), row.id(), PatientIdentities.childPatientOf(source.patientIdentity(), projection, image),
                PatientIdentities.childPatientOf(source.patientIdentity(), projection, now));
        awaitUnknownPatient(source, projection, row, now);
        TableStatus status = state.statuses().of(row.tableRef().id(), row.sourceId(), row.table());
        state.statuses().put(row.tableRef().id(), status.withCounts(status.rows(), status.chunks() + chunks.count() - image.chunks())
                .withUnresolvedCodes(now.unresolved() - image.unresolved()));
    }

    /** The patient a row of a table reaching its patient through an encounter has now; null for any other table. */
    String viaPatientOf(String sourceId, TableProjection projection, Map<String, String> row) {
        return projection.patientColumn() == null ? state.patients().patientIdOf(sourceId, row, projection) : null;
    }

    /** Notes a row chunked while its patient's row is not read yet, so that it is chunked again once it is. */
    void awaitUnknownPatient(SourceRegistration source, TableProjection projection, RowId row, RowImage image) {
        String patientId = state.patients().patientIdOf(row.sourceId(), image.row(), projection);
        if (patientId != null && source.patientIdentity() != null && !state.patients().known(row.sourceId(), patientId)) {
            state.patients().awaitPatient(row.sourceId(), patientId, row.id());
        }
    }
}
