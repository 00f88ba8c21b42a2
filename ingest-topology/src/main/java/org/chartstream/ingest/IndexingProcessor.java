package org.chartstream.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.core.model.TextChunker;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunker;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.PassageEmbedder;
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
 * statuses that changed, and chunks the child rows of patients whose name or number changed again under the new
 * header ({@link PatientIdentities}), as much as fits in the linger period each time. Both timers run only while
 * there is such work ({@link WorkPunctuation}): an idle task asks for no transaction.
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
    private RowEvents rowEvents;
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
        this.rowEvents = new RowEvents(new RowChunker(textChunker, patients), events, this::emit);
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
            boolean rechunked = chunkRenamedPatientsRowsAgain(linger);
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
        awaitedPatient.forEach(rowStoreKey -> chunkAgainUnderItsPatient(RowId.parse(rowStoreKey)));
    }

    /**
     * Chunks the rows of patients whose name or number changed again, a row at a time, for at most {@code budget}:
     * a patient with more rows than that goes on at the next punctuation, so one loop of the stream thread re-emits
     * only what it can chunk in the budget (plus the row under way when it ran out) and stays inside the transaction
     * timeout.
     *
     * @return whether any row was chunked
     */
    private boolean chunkRenamedPatientsRowsAgain(Duration budget) {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        int rowsChunked = 0;
        while (System.nanoTime() < deadline) {
            Optional<PatientIdentities.RenamedChild> next = patients.nextRenamedChild();
            if (next.isEmpty()) {
                break;
            }
            chunkAgainUnderItsPatient(RowId.parse(next.get().rowStoreKey()));
            rowsChunked++;
        }
        if (rowsChunked > 0) {
            LOG.info("{} rows of patients with a changed name or number chunked again in {} ms", rowsChunked,
                    (System.nanoTime() - start) / 1_000_000);
        }
        return rowsChunked > 0;
    }

    /**
     * A row chunked again under its patient as the patient table names them now: chunked before its patient's row was
     * read, or its patient's name or number changed since. Its header names the patient and its chunks carry the
     * patient's filter key. It is written again to the newest generation it was
     * written to (an older one it may also be in is superseded when that one publishes); a row deleted or emptied
     * since is skipped.
     */
    private void chunkAgainUnderItsPatient(RowId row) {
        RowImage image = state.rows().get(row);
        SourceRegistration source = sources.get(row.sourceId());
        if (image == null || source == null || source.table(row.table()).isEmpty()) {
            return;
        }
        TableProjection projection = source.table(row.table()).orElseThrow();
        String body = RowProjector.body(projection, image.row());
        if (body.isEmpty()) {
            return;
        }
        RowChunks chunks = rowEvents.chunk(row, projection, image, body);
        if (IndexRecordSize.upperBound(chunks, embedder.dimension()) > maxRecordBytes) {
            return; // the row as indexed stays: a longer header must not turn a written row into a dead letter
        }
        rowEvents.upsert(chunks, image.generation());
        state.rows().put(row, image.writtenTo(chunks.count(), image.generation()));
        TableStatus status = statuses.of(row.tableRef().id(), row.sourceId(), row.table());
        statuses.put(row.tableRef().id(), status.withCounts(status.rows(), status.chunks() + chunks.count() - image.chunks()));
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
        RowImage image = RowImage.of(0, 0, change.getSourcePosition(), change.getCommitTsMs(), admitted.row(), projection);
        String body = RowProjector.body(projection, image.row());
        if (body.isEmpty()) {
            // every allowed field is NULL: nothing to cite, so the row is not indexed (and leaves if it was)
            return (previous == null ? noticed : removeRow(row, previous, noticed)).withSkippedEmptyRow();
        }
        RowChunks chunks = rowEvents.chunk(row, projection, image, body);
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
        String patientId = projection.patientColumn() == null ? null : image.row().get(projection.patientColumn());
        SourceRegistration source = sources.get(change.getSourceId());
        if (patientId != null && source.patientIdentity() != null && !patients.known(change.getSourceId(), patientId)) {
            patients.awaitPatient(change.getSourceId(), patientId, row.id());
        }
        return noticed.withCounts(noticed.rows() + (previous == null ? 1 : 0),
                noticed.chunks() + chunks.count() - (previous == null ? 0 : previous.chunks()));
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
        return status.withCounts(status.rows() - 1, status.chunks() - previous.chunks());
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
        statuses.put(table.id(), retirement.retire(table, statuses.of(table.id(), table.sourceId(), table.table())
                .withChange(truncated.position(), truncated.commitTsMs(), embedder.modelId()), timestamp));
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
        statuses.put(table.id(), retirement.retire(table, status, timestamp).withDropped(true));
        deadLetter(table.id(), STAGE_TABLE_DROPPED, "table " + table.table() + " of source " + table.sourceId() + " no longer exists"
                + " at the source (dropped or renamed): its " + status.rows() + " rows left the index; it is indexed afresh if created again");
        LOG.warn("table {} no longer exists at the source: its rows left the index", table);
    }

    private void scanCompleted(TableScanCompleted scan, long timestamp) {
        TableRef table = new TableRef(scan.sourceId(), scan.table());
        if (reindex.rebuilding(table)) {
            return; // the staged generation is a re-index's: it is complete when its cursor reaches the end
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
