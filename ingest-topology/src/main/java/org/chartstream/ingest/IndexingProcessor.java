package org.chartstream.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.model.TextChunker;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunker;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.lookup.Dictionaries;
import org.chartstream.ingest.lookup.RowReferences;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.normalize.TableDropped;
import org.chartstream.ingest.normalize.TableScanCompleted;
import org.chartstream.ingest.normalize.TableTruncated;
import org.chartstream.ingest.project.ColumnPolicy;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.IndexEvents;
import org.chartstream.ingest.publish.IndexRecordSize;
import org.chartstream.ingest.publish.RowEvents;
import org.chartstream.ingest.publish.TableGenerations;
import org.chartstream.ingest.reindex.ReindexDriver;
import org.chartstream.ingest.reindex.ReindexRequest;
import org.chartstream.ingest.state.PlannerState;
import org.chartstream.ingest.state.RowId;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.ingest.status.TableStatuses;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.RowChange;
import org.chartstream.schemas.RowOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Row change → generation plan → projected text → chunks ({@link RowChunker}) → index events without vectors on the
 * ingest repartition topic, keyed by row, a generation's marker on every partition after its rows
 * ({@link org.chartstream.ingest.publish.IndexEventPartitioner}); the {@link EmbeddingProcessor} of each partition
 * embeds them and writes the index log. This task holds everything that depends on a table's order (one task reads a
 * table's one-partition change topic): generations, row images, patient identities, deletes and re-indexes. Once the
 * input has been quiet for a moment it asks Kafka Streams to commit, so a lone change does not wait for the commit
 * interval. Each linger period lets the {@link ReindexDriver} rebuild re-indexed tables from the kept row images,
 * while streaming changes keep flowing to both the active and the staged generation, and announces the table
 * statuses that changed, and chunks again the rows whose patient, codes or encounter changed ({@link RowsChunkedAgain}),
 * as much as fits in the linger period each time. Both timers run only while there is such work
 * ({@link WorkPunctuation}): an idle task asks for no transaction.
 *
 * <p>A dictionary table's rows are not indexed: they are kept as the meanings of their codes ({@link Dictionaries}),
 * each row of a table with lookups is rendered with them ({@link RowReferences}), and a dictionary change chunks
 * again the rows using the codes it touched. An encounter table's rows also keep the encounter's patient, for the
 * tables that reach their patient through it.
 *
 * <p>The latest image of every indexed row is kept (without excluded fields): what a re-index rebuilds from and what
 * keeps each table's row and chunk counts exact. A row whose allowed fields are all NULL is not indexed (and leaves
 * the index if it was), counted in the table's status. Without a field list, columns added to the table after it was
 * first indexed are held back ({@link ColumnPolicy}) and named once each in a dead letter and in the status. A
 * truncate, and a table found gone from the source ({@link TableDropped}), publish an empty generation at once.
 */
final class IndexingProcessor implements Processor<String, Object, String, Object> {
    static final String DEAD_LETTER_CHILD = "dead-letters";
    static final String STAGE_NEW_COLUMN = "ingest.project.new-column";
    static final String STAGE_WRITE = "ingest.write";
    static final String STAGE_TABLE_DROPPED = "ingest.source.table-dropped";
    static final String EMBED_CHILD = "to-embedding";
    static final String STATUS_CHILD = "ingest-status";
    private static final Logger LOG = LoggerFactory.getLogger(IndexingProcessor.class);

    private final Map<String, SourceRegistration> sources;
    private final TextChunker textChunker;
    private final PassageEmbedder embedder;
    private final IndexEvents events;
    private final FlushRule flushRule;
    private final int maxRecordBytes;
    private boolean uncommitted;
    private long lastForwardMs;
    private WorkPunctuation commits;
    private WorkPunctuation background;

    private ProcessorContext<String, Object> context;
    private PlannerState state;
    private PatientIdentities patients;
    private TableStatuses statuses;
    private RowReferences references;
    private RowEvents rowEvents;
    private RowsChunkedAgain again;
    private ReindexDriver reindex;
    private TableRetirement retirement;

    IndexingProcessor(Map<String, SourceRegistration> sources, TextChunker chunker, PassageEmbedder embedder,
                      FlushRule flushRule, int maxRecordBytes) {
        this.maxRecordBytes = maxRecordBytes;
        this.sources = sources;
        this.textChunker = chunker;
        this.embedder = embedder;
        this.events = new IndexEvents(embedder);
        this.flushRule = flushRule;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.state = PlannerState.of(context);
        this.patients = state.patients();
        this.statuses = state.statuses();
        this.references = state.references();
        this.rowEvents = new RowEvents(new RowChunker(textChunker, patients), references, events, this::emit);
        this.again = new RowsChunkedAgain(sources, state, rowEvents, embedder.dimension(), maxRecordBytes);
        this.reindex = new ReindexDriver(sources, state, rowEvents, flushRule.batchChunks());
        this.retirement = new TableRetirement(sources, state, rowEvents, reindex);
        commits = new WorkPunctuation(context, flushRule.quiet(), () -> {
            if (uncommitted && context.currentSystemTimeMs() - lastForwardMs >= flushRule.quiet().toMillis()) {
                commit();
            }
            return uncommitted;
        });
        Duration linger = flushRule.linger();
        background = new WorkPunctuation(context, linger, () -> {
            boolean rebuilt = reindex.advance(linger);
            boolean rechunked = again.advance(linger);
            if (uncommitted) {
                commit();
                return true;
            }
            boolean announced = announceStatuses(System.currentTimeMillis());
            return announced || rebuilt || rechunked;
        });
        background.arm(); // re-indexes and renames under way before a restart go on, and every status is announced
    }

    @Override
    public void process(Record<String, Object> record) {
        background.arm();
        if (record.value() instanceof RowChange change) {
            apply(change, record.timestamp());
        } else if (record.value() instanceof ReindexRequest request) {
            reindex.start(request);
        } else if (record.value() instanceof TableScanCompleted scan) {
            scanCompleted(scan, record.timestamp());
        } else if (record.value() instanceof TableTruncated truncated) {
            truncate(truncated, record.timestamp());
        } else if (record.value() instanceof TableDropped dropped) {
            tableDropped(dropped, record.timestamp());
        }
    }

    private void apply(RowChange change, long timestamp) {
        SourceRegistration source = sources.get(change.getSourceId());
        TableProjection projection = source.table(change.getTableName()).orElseThrow();
        PatientIdentityColumns idColumns = source.patientIdentity();
        RowId row = new RowId(change.getSourceId(), change.getTableName(), change.getRowKey());
        TableRef table = row.tableRef();
        if (projection.binding().role() == TableRole.DICTIONARY) {
            dictionaryChanged(change, source, row);
            return;
        }
        if (projection.binding().role() == TableRole.ENCOUNTER && change.getOp() != RowOp.DELETE) {
            patients.rememberEncounter(change.getSourceId(), projection.binding(), change.getAfter()).ifPresent(references::changed);
        }

        // a deleted patient's children keep the identity they were indexed with until they change
        List<String> awaitedPatient = List.of();
        if (idColumns != null && change.getTableName().equals(idColumns.table()) && change.getOp() != RowOp.DELETE) {
            awaitedPatient = patients.remember(change.getSourceId(), idColumns.identityOf(change.getAfter()));
        }
        TableGenerations generations = state.generations().of(table);
        GenerationPlanner.Plan plan = GenerationPlanner.plan(generations, change.getOp(), change.getSnapshot());
        state.generations().put(table, plan.next());

        TableStatus status = statuses.of(table.id(), table.sourceId(), table.table())
                .withChange(change.getSourcePosition(), change.getCommitTsMs(), embedder.modelId());
        RowImage previous = state.rows().get(row);
        if (change.getOp() == RowOp.DELETE) {
            status = removeRow(row, previous, status);
        } else {
            status = indexRow(change, row, projection, plan, previous, status);
        }
        if (plan.publish() > 0) {
            status = publishStaged(table, plan.publish(), change.getOp() == RowOp.SNAPSHOT,
                    GenerationPlanner.stagedRowsWith(generations, change.getSnapshot()), timestamp, status);
        }
        statuses.put(table.id(), status);
        awaitedPatient.forEach(rowStoreKey -> again.chunkAgain(RowId.parse(rowStoreKey)));
    }

    /**
     * A dictionary row kept (or forgotten) as the meanings of the codes it provides; the rows using a code it added,
     * changed or removed are chunked again. The table's status counts its kept rows; it has no chunks or generations.
     */
    private void dictionaryChanged(RowChange change, SourceRegistration source, RowId row) {
        TableRef table = row.tableRef();
        Dictionaries.Applied applied = state.dictionaries().apply(row.sourceId(), source.binding(), row.table(), row.id(),
                change.getOp() == RowOp.DELETE ? null : change.getAfter());
        applied.changed().forEach(references::changed);
        TableStatus status = statuses.of(table.id(), table.sourceId(), table.table())
                .withChange(change.getSourcePosition(), change.getCommitTsMs(), embedder.modelId());
        statuses.put(table.id(), status.withCounts(status.rows() + (applied.isKept() ? 1 : 0) - (applied.wasKept() ? 1 : 0), 0));
    }

    /** A dictionary emptied at the source (truncated, dropped): its meanings go, the rows using them are chunked again. */
    private TableStatus forgetDictionary(TableRef table, TableStatus status) {
        SourceRegistration source = sources.get(table.sourceId());
        for (String rowStoreKey : state.dictionaries().rowsOf(table.id() + ":")) {
            state.dictionaries().apply(table.sourceId(), source.binding(), table.table(), rowStoreKey, null).changed()
                    .forEach(references::changed);
        }
        return status.withCounts(0, 0);
    }

    private boolean isDictionary(TableRef table) {
        SourceRegistration source = sources.get(table.sourceId());
        return source != null && source.table(table.table()).map(p -> p.binding().role() == TableRole.DICTIONARY).orElse(false);
    }

    /**
     * Writes a row's chunks to the plan's generations and keeps its image. A row with nothing to index is removed
     * instead; a row too large for one index record is not written (dead letter): that would abort the transaction
     * on every retry. The index then keeps the row's previous version.
     */
    private TableStatus indexRow(RowChange change, RowId row, TableProjection projection, GenerationPlanner.Plan plan,
                                 RowImage previous, TableStatus status) {
        ColumnPolicy.Admitted admitted = state.columns().admit(row.tableRef(), projection, change.getAfter());
        TableStatus noticed = noticeNewColumns(status, change, projection, admitted.newColumns());
        RowImage read = RowImage.of(0, 0, change.getSourcePosition(), change.getCommitTsMs(), admitted.row(), projection);
        if (RowProjector.body(projection, read.row()).isEmpty()) {
            // every allowed field is NULL: nothing to cite, so the row is not indexed (and leaves if it was)
            return (previous == null ? noticed : removeRow(row, previous, noticed)).withSkippedEmptyRow();
        }
        RowReferences.Rendered rendered = references.render(row.sourceId(), projection, read.row());
        RowImage image = read.rendered(rendered.unresolved(), again.viaPatientOf(row.sourceId(), projection, read.row()));
        RowChunks chunks = rowEvents.chunkRendered(row, projection, image, rendered.row());
        long size = IndexRecordSize.upperBound(chunks, embedder.dimension());
        if (size > maxRecordBytes) {
            deadLetter(row.tableRef().id(), STAGE_WRITE, "table " + change.getSchemaName() + "." + change.getTableName() + " of source "
                    + change.getSourceId() + " row " + change.getRowKey() + ": " + chunks.count() + " chunks make an index record of up to "
                    + size + " bytes, more than kafka.max-record-bytes (" + maxRecordBytes + "); this version of the row is not indexed");
            LOG.error("table {}: a row too large for one index record was not indexed (dead letter written)", row.tableRef());
            return noticed;
        }
        for (long generation : plan.targets()) {
            rowEvents.upsert(chunks, generation);
        }
        long newest = plan.targets().stream().mapToLong(Long::longValue).max().orElse(0);
        state.rows().put(row, image.writtenTo(chunks.count(), newest));
        patients.childMoved(row.sourceId(), row.id(), childPatientOf(row.sourceId(), projection, previous),
                childPatientOf(row.sourceId(), projection, image));
        references.rowMoved(row.sourceId(), row.id(), projection, previous == null ? null : previous.row(), image.row());
        again.awaitUnknownPatient(sources.get(change.getSourceId()), projection, row, image);
        return noticed.withCounts(noticed.rows() + (previous == null ? 1 : 0),
                noticed.chunks() + chunks.count() - (previous == null ? 0 : previous.chunks()))
                .withUnresolvedCodes(image.unresolved() - (previous == null ? 0 : previous.unresolved()));
    }

    /** Removes a row from every generation and from the kept images (a delete, or a row with nothing to index). */
    private TableStatus removeRow(RowId row, RowImage previous, TableStatus status) {
        rowEvents.delete(row);
        if (previous == null) {
            return status;
        }
        state.rows().delete(row);
        TableProjection projection = sources.get(row.sourceId()).table(row.table()).orElseThrow();
        patients.childMoved(row.sourceId(), row.id(), childPatientOf(row.sourceId(), projection, previous), null);
        references.rowMoved(row.sourceId(), row.id(), projection, previous.row(), null);
        return status.withCounts(status.rows() - 1, status.chunks() - previous.chunks()).withUnresolvedCodes(-previous.unresolved());
    }

    private String childPatientOf(String sourceId, TableProjection projection, RowImage image) {
        return PatientIdentities.childPatientOf(sources.get(sourceId).patientIdentity(), projection, image);
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
                deadLetter(new TableRef(change.getSourceId(), change.getTableName()).id(), STAGE_NEW_COLUMN, "table "
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
        TableRef table = new TableRef(truncated.sourceId(), truncated.table());
        TableStatus status = statuses.of(table.id(), table.sourceId(), table.table())
                .withChange(truncated.position(), truncated.commitTsMs(), embedder.modelId());
        statuses.put(table.id(), isDictionary(table) ? forgetDictionary(table, status) : retirement.retire(table, status, timestamp));
    }

    /**
     * A registered table gone from the source's catalog: its rows leave as after a truncate; a dead letter names the
     * table (no row of it) and its status says dropped until a change of the table re-created arrives.
     */
    private void tableDropped(TableDropped dropped, long timestamp) {
        TableRef table = new TableRef(dropped.sourceId(), dropped.table());
        SourceRegistration source = sources.get(table.sourceId());
        TableStatus status = statuses.of(table.id(), table.sourceId(), table.table());
        if (source == null || source.table(table.table()).isEmpty() || status.dropped()) {
            return;
        }
        statuses.put(table.id(), (isDictionary(table) ? forgetDictionary(table, status) : retirement.retire(table, status, timestamp))
                .withDropped(true));
        deadLetter(table.id(), STAGE_TABLE_DROPPED, "table " + table.table() + " of source " + table.sourceId() + " no longer exists"
                + " at the source (dropped or renamed): its " + status.rows() + " rows left the index; it is indexed afresh if created again");
        LOG.warn("table {} no longer exists at the source: its rows left the index", table);
    }

    private void scanCompleted(TableScanCompleted scan, long timestamp) {
        TableRef table = new TableRef(scan.sourceId(), scan.table());
        if (reindex.rebuilding(table) || isDictionary(table)) {
            return; // the staged generation is a re-index's (complete when its cursor reaches the end), or there is none
        }
        TableGenerations generations = state.generations().of(table);
        GenerationPlanner.Plan plan = GenerationPlanner.scanCompleted(generations, scan.rows());
        state.generations().put(table, plan.next());
        if (plan.publish() > 0) {
            TableStatus status = publishStaged(table, plan.publish(), true, generations.stagedRows(), timestamp,
                    statuses.of(table.id(), table.sourceId(), table.table()));
            statuses.put(table.id(), status);
        }
    }

    /** Appends the publish marker of a complete generation; a snapshot's also retires the rows it did not see. */
    private TableStatus publishStaged(TableRef table, long generation, boolean snapshot, long rowCount, long timestamp,
                                      TableStatus status) {
        TableStatus after = snapshot ? retirement.dropRowsNotIn(table, generation, status) : status;
        rowEvents.published(table, generation, rowCount, timestamp);
        LOG.info("table {} generation {} complete, publishing", table, generation);
        return after;
    }

    /** Sends an index event to the embedding tasks: a row to its key's partition, a marker to every partition. */
    private void emit(IndexEvent event) {
        lastForwardMs = context.currentSystemTimeMs();
        uncommitted = true;
        commits.arm();
        context.forward(new Record<String, Object>(IndexEvents.key(event), event, System.currentTimeMillis()), EMBED_CHILD);
    }

    /**
     * Announces the statuses that changed and asks for a commit: under exactly-once the embedding tasks see the
     * events only once the transaction commits.
     */
    private void commit() {
        announceStatuses(System.currentTimeMillis());
        uncommitted = false;
        context.commit();
    }

    /** @return whether any status was announced */
    private boolean announceStatuses(long now) {
        return statuses.announce(now, tableKey -> state.generations().of(TableRef.parse(tableKey)),
                (tableKey, status) -> context.forward(new Record<String, Object>(tableKey, status.toRecord(), now), STATUS_CHILD));
    }
}
