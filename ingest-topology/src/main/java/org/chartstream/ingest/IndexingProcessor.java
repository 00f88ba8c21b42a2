package org.chartstream.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.model.TextChunker;
import org.chartstream.ingest.embed.EmbeddingBatch;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.normalize.TableScanCompleted;
import org.chartstream.ingest.normalize.TableTruncated;
import org.chartstream.ingest.project.ColumnPolicy;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.IndexRecordSize;
import org.chartstream.ingest.publish.TableGenerations;
import org.chartstream.ingest.reindex.ReindexCursor;
import org.chartstream.ingest.reindex.ReindexRequest;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.GenerationMarker;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.RowChange;
import org.chartstream.schemas.RowOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Row change → generation plan → projected text → chunks → pending index events. Pending events wait in a
 * changelogged store (so a crash loses none) until a batch is full or the linger time passes; then one model call
 * embeds the whole batch and the events are forwarded in their original order.
 *
 * <p>The latest image of every indexed row is kept (without excluded fields) so that a re-index can rebuild a
 * table as a new generation from it, a batch of rows per punctuation, while streaming changes keep flowing to both
 * the active and the staged generation.
 *
 * <p>A row whose allowed fields are all NULL is not indexed (and leaves the index if it was), counted in the table's
 * status. Without a field list, columns added to the table after it was first indexed are held back
 * ({@link ColumnPolicy}) and named once each in a dead letter and in the status. A truncate publishes an empty
 * generation at once.
 */
final class IndexingProcessor implements Processor<String, Object, String, Object> {
    static final String PATIENTS_STORE = "patient-identities";
    static final String GENERATIONS_STORE = "table-generations";
    static final String BUFFER_STORE = "embedding-buffer";
    static final String ROWS_STORE = "row-images";
    static final String STATUS_STORE = "table-status";
    static final String REINDEX_STORE = "reindex-cursors";
    static final String COLUMNS_STORE = "table-columns";
    static final String DEAD_LETTER_CHILD = "dead-letters";
    static final String STAGE_NEW_COLUMN = "ingest.project.new-column";
    static final String STAGE_WRITE = "ingest.write";
    static final String INDEX_CHILD = "index-log";
    static final String STATUS_CHILD = "ingest-status";
    private static final Logger LOG = LoggerFactory.getLogger(IndexingProcessor.class);

    private final Map<String, SourceRegistration> sources;
    private final TextChunker chunker;
    private final PassageEmbedder embedder;
    private final int batchChunks;
    private final Duration linger;
    private final int maxRecordBytes;

    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, String> patients;
    private KeyValueStore<String, String> generations;
    private KeyValueStore<Long, IndexEvent> buffer;
    private KeyValueStore<String, String> rows;
    private KeyValueStore<String, String> statuses;
    private KeyValueStore<String, String> reindexes;
    private KeyValueStore<String, String> columns;
    private final Set<String> changedTables = new LinkedHashSet<>();
    private long nextSeq;
    private int pendingChunks;

    IndexingProcessor(Map<String, SourceRegistration> sources, TextChunker chunker, PassageEmbedder embedder,
                      int batchChunks, Duration linger, int maxRecordBytes) {
        this.maxRecordBytes = maxRecordBytes;
        this.sources = sources;
        this.chunker = chunker;
        this.embedder = embedder;
        this.batchChunks = batchChunks;
        this.linger = linger;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.patients = context.getStateStore(PATIENTS_STORE);
        this.generations = context.getStateStore(GENERATIONS_STORE);
        this.buffer = context.getStateStore(BUFFER_STORE);
        this.rows = context.getStateStore(ROWS_STORE);
        this.statuses = context.getStateStore(STATUS_STORE);
        this.reindexes = context.getStateStore(REINDEX_STORE);
        this.columns = context.getStateStore(COLUMNS_STORE);
        try (KeyValueIterator<Long, IndexEvent> it = buffer.all()) {
            while (it.hasNext()) {
                KeyValue<Long, IndexEvent> kv = it.next();
                nextSeq = Math.max(nextSeq, kv.key + 1);
                pendingChunks += EmbeddingBatch.pendingChunks(kv.value);
            }
        }
        try (KeyValueIterator<String, String> it = statuses.all()) {
            it.forEachRemaining(kv -> changedTables.add(kv.key)); // re-announce after a restart
        }
        context.schedule(linger, PunctuationType.WALL_CLOCK_TIME, now -> {
            flush();
            advanceReindexes();
        });
    }

    @Override
    public void process(Record<String, Object> record) {
        if (record.value() instanceof RowChange change) {
            apply(change, record.timestamp());
        } else if (record.value() instanceof ReindexRequest request) {
            startReindex(request);
        } else if (record.value() instanceof TableScanCompleted scan) {
            scanCompleted(scan, record.timestamp());
        } else if (record.value() instanceof TableTruncated truncated) {
            truncate(truncated, record.timestamp());
        }
        if (pendingChunks >= batchChunks) {
            flush();
        }
    }

    private void apply(RowChange change, long timestamp) {
        SourceRegistration source = sources.get(change.getSourceId());
        TableProjection projection = source.table(change.getTableName()).orElseThrow();
        PatientIdentityColumns idColumns = source.patientIdentity();
        String tableKey = change.getSourceId() + ":" + change.getTableName();
        String rowStoreKey = tableKey + ":" + change.getRowKey();

        if (idColumns != null && change.getTableName().equals(idColumns.table())) {
            rememberPatient(change, idColumns);
        }
        TableGenerations state = TableGenerations.decode(generations.get(tableKey));
        GenerationPlanner.Plan plan = GenerationPlanner.plan(state, change.getOp(), change.getSnapshot());
        generations.put(tableKey, plan.next().encode());

        TableStatus status = status(tableKey, change.getSourceId(), change.getTableName())
                .withChange(change.getSourcePosition(), change.getCommitTsMs(), embedder.modelId());
        String previousEncoded = rows.get(rowStoreKey);
        RowImage previous = previousEncoded == null ? null : RowImage.decode(previousEncoded);
        if (change.getOp() == RowOp.DELETE) {
            status = removeRow(change, rowStoreKey, previous, status);
        } else {
            status = indexRow(change, projection, plan, previous, status);
        }
        if (plan.publish() > 0) {
            status = publishStaged(tableKey, change.getSourceId(), change.getTableName(), plan.publish(),
                    change.getOp() == RowOp.SNAPSHOT, state.stagedRows() + 1, timestamp, status);
        }
        statuses.put(tableKey, status.encode());
        changedTables.add(tableKey);
    }

    /**
     * Writes a row's chunks to the plan's generations and keeps its image. A row with nothing to index is removed
     * instead; a row too large for one index record is not written (dead letter): that would abort the transaction
     * on every retry. The index then keeps the row's previous version.
     */
    private TableStatus indexRow(RowChange change, TableProjection projection, GenerationPlanner.Plan plan, RowImage previous,
                                 TableStatus status) {
        String tableKey = change.getSourceId() + ":" + change.getTableName();
        String rowStoreKey = tableKey + ":" + change.getRowKey();
        ColumnPolicy.Admitted admitted = admittedColumns(tableKey, projection, change.getAfter());
        TableStatus noticed = noticeNewColumns(status, change, projection, admitted.newColumns());
        RowImage image = RowImage.of(0, 0, change.getSourcePosition(), change.getCommitTsMs(), admitted.row(), projection);
        String body = RowProjector.body(projection, image.row());
        if (body.isEmpty()) {
            // every allowed field is NULL: nothing to cite, so the row is not indexed (and leaves if it was)
            return (previous == null ? noticed : removeRow(change, rowStoreKey, previous, noticed)).withSkippedEmptyRow();
        }
        PatientIdentity patient = patientOf(change.getSourceId(), image.row(), projection);
        List<String> pieces = chunker.chunk(RowProjector.header(projection, patient), body);
        long size = IndexRecordSize.upperBound(change.getRowKey(), pieces, embedder.dimension());
        if (size > maxRecordBytes) {
            deadLetter(tableKey, STAGE_WRITE, "table " + change.getSchemaName() + "." + change.getTableName() + " of source "
                    + change.getSourceId() + " row " + change.getRowKey() + ": " + pieces.size() + " chunks make an index record of up to "
                    + size + " bytes, more than kafka.max-record-bytes (" + maxRecordBytes + "); this version of the row is not indexed");
            LOG.error("table {}: a row too large for one index record was not indexed (dead letter written)", tableKey);
            return noticed;
        }
        for (long generation : plan.targets()) {
            append(upsert(change.getSourceId(), change.getTableName(), change.getRowKey(), generation, pieces, patient,
                    image.position(), image.commitTsMs()));
        }
        long newest = plan.targets().stream().mapToLong(Long::longValue).max().orElse(0);
        rows.put(rowStoreKey, image.writtenTo(pieces.size(), newest).encode());
        return noticed.withCounts(noticed.rows() + (previous == null ? 1 : 0),
                noticed.chunks() + pieces.size() - (previous == null ? 0 : previous.chunks()));
    }

    /** Removes a row from every generation and from the kept images (a delete, or a row with nothing to index). */
    private TableStatus removeRow(RowChange change, String rowStoreKey, RowImage previous, TableStatus status) {
        append(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId(change.getSourceId())
                .setTableName(change.getTableName()).setRowKey(change.getRowKey()).setGeneration(0).build());
        if (previous == null) {
            return status;
        }
        rows.delete(rowStoreKey);
        return status.withCounts(status.rows() - 1, status.chunks() - previous.chunks());
    }

    /** The columns of {@code after} that may be indexed; records the table's columns the first time. */
    private ColumnPolicy.Admitted admittedColumns(String tableKey, TableProjection projection, Map<String, String> after) {
        Set<String> known = ColumnPolicy.decode(columns.get(tableKey));
        ColumnPolicy.Admitted admitted = ColumnPolicy.admit(projection, known, after);
        if (!admitted.known().equals(known)) {
            columns.put(tableKey, ColumnPolicy.encode(admitted.known()));
        }
        return admitted;
    }

    /** Names each held-back column once, in a dead letter and in the status; a field list clears the notice. */
    private TableStatus noticeNewColumns(TableStatus status, RowChange change, TableProjection projection, List<String> held) {
        if (!projection.fields().isEmpty()) {
            return status.unreviewedColumns().isEmpty() ? status : status.withUnreviewedColumns(List.of());
        }
        List<String> unreviewed = new ArrayList<>(status.unreviewedColumns());
        for (String column : held) {
            if (!unreviewed.contains(column)) {
                unreviewed.add(column);
                deadLetter(change.getSourceId() + ":" + change.getTableName(), STAGE_NEW_COLUMN, "table "
                        + change.getSchemaName() + "." + change.getTableName() + " of source " + change.getSourceId()
                        + ": column '" + column + "' was added after the table was first indexed and is not indexed until"
                        + " it is allow-listed (source.fields." + change.getTableName() + ")");
                LOG.warn("table {}:{}: new column '{}' held back until allow-listed", change.getSourceId(), change.getTableName(), column);
            }
        }
        return unreviewed.size() == status.unreviewedColumns().size() ? status : status.withUnreviewedColumns(unreviewed);
    }

    /** A dead letter about the record being processed: its topic, partition and offset, no key or value copied. */
    private void deadLetter(String key, String stage, String reason) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        DeadLetter dl = DeadLetter.newBuilder().setSourceTopic(meta == null ? "" : meta.topic())
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(null).setValue(null).setStage(stage).setReason(reason).setTsMs(System.currentTimeMillis()).build();
        context.forward(new Record<String, Object>(key, dl, System.currentTimeMillis()), DEAD_LETTER_CHILD);
    }

    /** A TRUNCATE: every row leaves the index at once, as an empty generation published in one step. */
    private void truncate(TableTruncated truncated, long timestamp) {
        String tableKey = truncated.tableKey();
        TableGenerations state = TableGenerations.decode(generations.get(tableKey));
        GenerationPlanner.Plan plan = GenerationPlanner.truncated(state);
        generations.put(tableKey, plan.next().encode());
        reindexes.delete(tableKey);
        TableStatus status = status(tableKey, truncated.sourceId(), truncated.table())
                .withChange(truncated.position(), truncated.commitTsMs(), embedder.modelId());
        status = dropRowsNotIn(tableKey, plan.publish(), status);
        append(marker(truncated.sourceId(), truncated.table(), plan.publish(), 0, timestamp));
        statuses.put(tableKey, status.encode());
        changedTables.add(tableKey);
        LOG.info("table {} truncated: publishing empty generation {}", tableKey, plan.publish());
    }

    private void scanCompleted(TableScanCompleted scan, long timestamp) {
        if (reindexes.get(scan.tableKey()) != null) {
            return; // the staged generation is a re-index's: it is complete when its cursor reaches the end
        }
        TableGenerations state = TableGenerations.decode(generations.get(scan.tableKey()));
        GenerationPlanner.Plan plan = GenerationPlanner.scanCompleted(state, scan.rows());
        generations.put(scan.tableKey(), plan.next().encode());
        if (plan.publish() > 0) {
            TableStatus status = publishStaged(scan.tableKey(), scan.sourceId(), scan.table(), plan.publish(), true,
                    state.stagedRows(), timestamp, status(scan.tableKey(), scan.sourceId(), scan.table()));
            statuses.put(scan.tableKey(), status.encode());
            changedTables.add(scan.tableKey());
        }
    }

    /** Appends the publish marker of a complete generation; a snapshot's also retires the rows it did not see. */
    private TableStatus publishStaged(String tableKey, String sourceId, String table, long generation, boolean snapshot,
                                      long rowCount, long timestamp, TableStatus status) {
        TableStatus after = snapshot ? dropRowsNotIn(tableKey, generation, status) : status;
        append(marker(sourceId, table, generation, rowCount, timestamp));
        LOG.info("table {} generation {} complete, publishing", tableKey, generation);
        return after;
    }

    /**
     * A snapshot sees every row the source holds; rows kept from before that the snapshot did not see were deleted
     * while no change stream was read. Their chunks go with the superseded generation; their images go here.
     */
    private TableStatus dropRowsNotIn(String tableKey, long generation, TableStatus status) {
        List<String> gone = new ArrayList<>();
        long chunks = 0;
        try (KeyValueIterator<String, String> it = rows.range(tableKey + ":", tableKey + ";")) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                RowImage image = RowImage.decode(kv.value);
                if (image.generation() < generation) {
                    gone.add(kv.key);
                    chunks += image.chunks();
                }
            }
        }
        gone.forEach(rows::delete);
        return status.withCounts(status.rows() - gone.size(), status.chunks() - chunks);
    }

    private void startReindex(ReindexRequest request) {
        SourceRegistration source = sources.get(request.sourceId());
        if (source == null || source.table(request.table()).isEmpty()) {
            LOG.warn("re-index request for {} ignored: not a registered table", request.tableKey());
            return;
        }
        TableGenerations state = TableGenerations.decode(generations.get(request.tableKey()));
        GenerationPlanner.startReindex(state).ifPresentOrElse(next -> {
            generations.put(request.tableKey(), next.encode());
            reindexes.put(request.tableKey(), new ReindexCursor(next.staged(), "").encode());
            changedTables.add(request.tableKey());
            LOG.info("re-indexing {} as generation {} (active {})", request.tableKey(), next.staged(), next.active());
        }, () -> LOG.warn("re-index request for {} ignored: nothing published yet or generation {} still being built",
                request.tableKey(), state.staged()));
    }

    /** Rebuilds re-indexed tables a batch at a time for at most one linger period, then lets changes flow again. */
    private void advanceReindexes() {
        long deadline = System.nanoTime() + linger.toNanos();
        List<KeyValue<String, String>> open = new ArrayList<>();
        try (KeyValueIterator<String, String> it = reindexes.all()) {
            it.forEachRemaining(open::add);
        }
        for (KeyValue<String, String> entry : open) {
            ReindexCursor cursor = ReindexCursor.decode(entry.value);
            while (cursor != null && System.nanoTime() < deadline) {
                cursor = reindexBatch(entry.key, cursor);
                flush();
            }
        }
    }

    /** Writes the next batch of row images into the re-index generation; null once the generation is published. */
    private ReindexCursor reindexBatch(String tableKey, ReindexCursor cursor) {
        TableGenerations state = TableGenerations.decode(generations.get(tableKey));
        int colon = tableKey.indexOf(':');
        String sourceId = tableKey.substring(0, colon);
        String table = tableKey.substring(colon + 1);
        SourceRegistration source = sources.get(sourceId);
        if (state.staged() != cursor.generation() || source == null || source.table(table).isEmpty()) {
            reindexes.delete(tableKey); // superseded by a snapshot, or the table is no longer registered
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
                PatientIdentity patient = patientOf(sourceId, image.row(), projection);
                List<String> pieces = chunker.chunk(RowProjector.header(projection, patient), RowProjector.body(projection, image.row()));
                String rowKey = kv.key.substring(tableKey.length() + 1);
                append(upsert(sourceId, table, rowKey, cursor.generation(), pieces, patient, image.position(), image.commitTsMs()));
                updated.add(KeyValue.pair(kv.key, image.writtenTo(pieces.size(), cursor.generation())));
                last = kv.key;
                written++;
                chunksWritten += pieces.size();
            }
        }
        TableStatus status = status(tableKey, sourceId, table);
        long chunkDelta = 0;
        for (KeyValue<String, RowImage> kv : updated) {
            chunkDelta += kv.value.chunks() - RowImage.decode(rows.get(kv.key)).chunks();
            rows.put(kv.key, kv.value.encode());
        }
        status = status.withCounts(status.rows(), status.chunks() + chunkDelta);
        changedTables.add(tableKey);
        if (written > 0 && chunksWritten >= batchChunks) {
            ReindexCursor next = cursor.advancedTo(last);
            reindexes.put(tableKey, next.encode());
            statuses.put(tableKey, status.encode());
            return next;
        }
        append(marker(sourceId, table, cursor.generation(), status.rows(), System.currentTimeMillis()));
        generations.put(tableKey, GenerationPlanner.published(state).encode());
        reindexes.delete(tableKey);
        statuses.put(tableKey, status.encode());
        LOG.info("re-index of {} complete: publishing generation {}", tableKey, cursor.generation());
        return null;
    }

    private TableStatus status(String tableKey, String sourceId, String table) {
        String encoded = statuses.get(tableKey);
        return encoded == null ? TableStatus.empty(sourceId, table) : TableStatus.decode(encoded);
    }

    private void rememberPatient(RowChange change, PatientIdentityColumns idColumns) {
        if (change.getOp() == RowOp.DELETE) {
            return; // children keep the identity they were indexed with until they change
        }
        PatientIdentity identity = idColumns.identityOf(change.getAfter());
        if (identity.patientId() != null) {
            patients.put(change.getSourceId() + ":" + identity.patientId(), identity.encode());
        }
    }

    private PatientIdentity patientOf(String sourceId, Map<String, String> row, TableProjection projection) {
        if (projection.patientColumn() == null) {
            return null;
        }
        String patientId = row.get(projection.patientColumn());
        if (patientId == null) {
            return null;
        }
        String known = patients.get(sourceId + ":" + patientId);
        if (known != null) {
            return PatientIdentity.decode(known);
        }
        return new PatientIdentity(patientId, null, null);
    }

    private IndexEvent marker(String sourceId, String table, long generation, long rowCount, long tsMs) {
        return IndexEvent.newBuilder().setKind(IndexEventKind.MARKER).setSourceId(sourceId).setTableName(table)
                .setGeneration(generation)
                .setMarker(GenerationMarker.newBuilder().setSourceId(sourceId).setTableName(table)
                        .setGeneration(generation).setState(GenerationState.PUBLISHED).setRows(rowCount)
                        .setModelId(embedder.modelId()).setTsMs(tsMs).build())
                .build();
    }

    private IndexEvent upsert(String sourceId, String table, String rowKey, long generation, List<String> pieces,
                              PatientIdentity patient, String position, long commitTsMs) {
        List<ChunkRecord> chunks = new ArrayList<>(pieces.size());
        for (int i = 0; i < pieces.size(); i++) {
            chunks.add(ChunkRecord.newBuilder()
                    .setChunkId(sourceId + ":" + table + ":" + rowKey + ":" + i + ":" + generation)
                    .setSourceId(sourceId).setTableName(table).setRowKey(rowKey)
                    .setChunkIndex(i).setChunkCount(pieces.size()).setGeneration(generation).setText(pieces.get(i))
                    .setVector(new ArrayList<>()).setPatientKey(patient == null ? null : patient.filterKey())
                    .setSourcePosition(position).setCommitTsMs(commitTsMs)
                    .setModelId(embedder.modelId()).setDimension(embedder.dimension()).build());
        }
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId(sourceId)
                .setTableName(table).setRowKey(rowKey).setGeneration(generation).setChunks(chunks).build();
    }

    private void append(IndexEvent event) {
        buffer.put(nextSeq++, event);
        pendingChunks += EmbeddingBatch.pendingChunks(event);
    }

    private void flush() {
        List<KeyValue<Long, IndexEvent>> pending = new ArrayList<>();
        try (KeyValueIterator<Long, IndexEvent> it = buffer.all()) {
            it.forEachRemaining(pending::add);
        }
        long now = System.currentTimeMillis();
        if (!pending.isEmpty()) {
            List<IndexEvent> events = pending.stream().map(kv -> kv.value).toList();
            long t0 = System.nanoTime();
            EmbeddingBatch.embed(events, embedder);
            LOG.debug("embedded {} pending chunks of {} events in {} ms", pendingChunks, events.size(), (System.nanoTime() - t0) / 1_000_000);
            for (KeyValue<Long, IndexEvent> kv : pending) {
                IndexEvent e = kv.value;
                String key = e.getKind() == IndexEventKind.MARKER
                        ? e.getSourceId() + ":" + e.getTableName()
                        : e.getSourceId() + ":" + e.getTableName() + ":" + e.getRowKey();
                context.forward(new Record<String, Object>(key, e, now), INDEX_CHILD);
                buffer.delete(kv.key);
            }
            pendingChunks = 0;
        }
        for (String tableKey : changedTables) {
            String encoded = statuses.get(tableKey);
            if (encoded != null) {
                TableGenerations g = TableGenerations.decode(generations.get(tableKey));
                TableStatus s = TableStatus.decode(encoded).withGenerations(g.active(), g.staged()).at(now);
                context.forward(new Record<String, Object>(tableKey, s.encode(), now), STATUS_CHILD);
            }
        }
        changedTables.clear();
    }
}
