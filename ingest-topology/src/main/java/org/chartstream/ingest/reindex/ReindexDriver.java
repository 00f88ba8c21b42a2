package org.chartstream.ingest.reindex;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.ingest.chunk.RowChunker;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.IndexEvents;
import org.chartstream.ingest.publish.TableGenerations;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.ingest.status.TableStatuses;
import org.chartstream.schemas.IndexEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a table as a new generation from its kept row images (key {@code source:table:rowKey}), in key order,
 * one embedding batch's worth of chunks at a time, while streaming changes keep flowing to both the active and the staged generation.
 * A {@link ReindexCursor} per table (key {@code source:table}) says how far the rebuild has read, so a restart goes
 * on from there; the generation is published once the last kept row has been written.
 */
public final class ReindexDriver {
    private static final Logger LOG = LoggerFactory.getLogger(ReindexDriver.class);

    private final Map<String, SourceRegistration> sources;
    private final KeyValueStore<String, String> cursors;
    private final KeyValueStore<String, String> generations;
    private final KeyValueStore<String, String> rows;
    private final TableStatuses statuses;
    private final RowChunker chunker;
    private final PatientIdentities patients;
    private final Consumer<IndexEvent> emit;
    private final int batchChunks;
    private final IndexEvents events;

    public ReindexDriver(Map<String, SourceRegistration> sources, KeyValueStore<String, String> cursors,
                         KeyValueStore<String, String> generations, KeyValueStore<String, String> rows,
                         TableStatuses statuses, RowChunker chunker, PatientIdentities patients, Consumer<IndexEvent> emit,
                         int batchChunks, IndexEvents events) {
        this.sources = sources;
        this.cursors = cursors;
        this.generations = generations;
        this.rows = rows;
        this.statuses = statuses;
        this.chunker = chunker;
        this.patients = patients;
        this.emit = emit;
        this.batchChunks = batchChunks;
        this.events = events;
    }

    /** Opens the re-index generation of a registered table that has one published and none being built. */
    public void start(ReindexRequest request) {
        SourceRegistration source = sources.get(request.sourceId());
        if (source == null || source.table(request.table()).isEmpty()) {
            LOG.warn("re-index request for {} ignored: not a registered table", request.tableKey());
            return;
        }
        TableGenerations state = TableGenerations.decode(generations.get(request.tableKey()));
        GenerationPlanner.startReindex(state).ifPresentOrElse(next -> {
            generations.put(request.tableKey(), next.encode());
            cursors.put(request.tableKey(), new ReindexCursor(next.staged(), "").encode());
            statuses.touch(request.tableKey());
            LOG.info("re-indexing {} as generation {} (active {})", request.tableKey(), next.staged(), next.active());
        }, () -> LOG.warn("re-index request for {} ignored: nothing published yet or generation {} still being built",
                request.tableKey(), state.staged()));
    }

    /** True while the table's staged generation is a re-index's (complete when its cursor reaches the end). */
    public boolean rebuilding(String tableKey) {
        return cursors.get(tableKey) != null;
    }

    /** Stops the table's re-index: the rows it was built from are gone. */
    public void abandon(String tableKey) {
        cursors.delete(tableKey);
    }

    /**
     * Rebuilds re-indexed tables a batch at a time for at most {@code budget}, then lets changes flow again.
     *
     * @return whether any re-index was open
     */
    public boolean advance(Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        List<KeyValue<String, String>> open = new ArrayList<>();
        try (KeyValueIterator<String, String> it = cursors.all()) {
            it.forEachRemaining(open::add);
        }
        for (KeyValue<String, String> entry : open) {
            ReindexCursor cursor = ReindexCursor.decode(entry.value);
            while (cursor != null && System.nanoTime() < deadline) {
                cursor = writeBatch(entry.key, cursor);
            }
        }
        return !open.isEmpty();
    }

    /** Writes the next batch of row images into the re-index generation; null once the generation is published. */
    private ReindexCursor writeBatch(String tableKey, ReindexCursor cursor) {
        TableGenerations state = TableGenerations.decode(generations.get(tableKey));
        int colon = tableKey.indexOf(':');
        String sourceId = tableKey.substring(0, colon);
        String table = tableKey.substring(colon + 1);
        SourceRegistration source = sources.get(sourceId);
        if (state.staged() != cursor.generation() || source == null || source.table(table).isEmpty()) {
            cursors.delete(tableKey); // superseded by a snapshot, or the table is no longer registered
            return null;
        }
        TableProjection projection = source.table(table).get();
        String from = cursor.lastKey().isEmpty() ? tableKey + ":" : cursor.lastKey();
        int written = 0;
        int chunksWritten = 0;
        String last = cursor.lastKey();
        List<KeyValue<String, RowImage>> updated = new ArrayList<>();
        try (KeyValueIterator<String, String> it = rows.range(from, tableKey + ";")) {
            while (it.hasNext() && chunksWritten < batchChunks) {
                KeyValue<String, String> kv = it.next();
                if (kv.key.equals(cursor.lastKey())) {
                    continue;
                }
                RowImage image = RowImage.decode(kv.value);
                RowChunks chunks = chunker.chunk(sourceId, table, kv.key.substring(tableKey.length() + 1), projection, image);
                emit.accept(events.upsert(chunks, cursor.generation()));
                // a row indexed before the patient-children index existed joins it here, so that a rename reaches it
                String patientId = PatientIdentities.childPatientOf(source.patientIdentity(), projection, image);
                patients.childMoved(sourceId, kv.key, patientId, patientId);
                updated.add(KeyValue.pair(kv.key, image.writtenTo(chunks.count(), cursor.generation())));
                last = kv.key;
                written++;
                chunksWritten += chunks.count();
            }
        }
        TableStatus status = statuses.of(tableKey, sourceId, table);
        long chunkDelta = 0;
        for (KeyValue<String, RowImage> kv : updated) {
            chunkDelta += kv.value.chunks() - RowImage.decode(rows.get(kv.key)).chunks();
            rows.put(kv.key, kv.value.encode());
        }
        status = status.withCounts(status.rows(), status.chunks() + chunkDelta);
        if (written > 0 && chunksWritten >= batchChunks) {
            ReindexCursor next = cursor.advancedTo(last);
            cursors.put(tableKey, next.encode());
            statuses.put(tableKey, status);
            return next;
        }
        emit.accept(events.published(sourceId, table, cursor.generation(), status.rows(), System.currentTimeMillis()));
        generations.put(tableKey, GenerationPlanner.published(state).encode());
        cursors.delete(tableKey);
        statuses.put(tableKey, status);
        LOG.info("re-index of {} complete: publishing generation {}", tableKey, cursor.generation());
        return null;
    }
}
