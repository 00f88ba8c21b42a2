package org.chartstream.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.ingest.embed.EmbeddingBatch;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.embed.TextChunker;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.RowProjector;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.GenerationPlanner;
import org.chartstream.ingest.publish.TableGenerations;
import org.chartstream.schemas.ChunkRecord;
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
 */
final class IndexingProcessor implements Processor<String, RowChange, String, IndexEvent> {
    static final String PATIENTS_STORE = "patient-identities";
    static final String GENERATIONS_STORE = "table-generations";
    static final String BUFFER_STORE = "embedding-buffer";
    private static final Logger LOG = LoggerFactory.getLogger(IndexingProcessor.class);

    private final Map<String, SourceRegistration> sources;
    private final TextChunker chunker;
    private final PassageEmbedder embedder;
    private final int batchChunks;
    private final Duration linger;

    private ProcessorContext<String, IndexEvent> context;
    private KeyValueStore<String, String> patients;
    private KeyValueStore<String, String> generations;
    private KeyValueStore<Long, IndexEvent> buffer;
    private long nextSeq;
    private int pendingChunks;

    IndexingProcessor(Map<String, SourceRegistration> sources, TextChunker chunker, PassageEmbedder embedder,
                      int batchChunks, Duration linger) {
        this.sources = sources;
        this.chunker = chunker;
        this.embedder = embedder;
        this.batchChunks = batchChunks;
        this.linger = linger;
    }

    @Override
    public void init(ProcessorContext<String, IndexEvent> context) {
        this.context = context;
        this.patients = context.getStateStore(PATIENTS_STORE);
        this.generations = context.getStateStore(GENERATIONS_STORE);
        this.buffer = context.getStateStore(BUFFER_STORE);
        try (KeyValueIterator<Long, IndexEvent> it = buffer.all()) {
            while (it.hasNext()) {
                KeyValue<Long, IndexEvent> kv = it.next();
                nextSeq = Math.max(nextSeq, kv.key + 1);
                pendingChunks += EmbeddingBatch.pendingChunks(kv.value);
            }
        }
        context.schedule(linger, PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    @Override
    public void process(Record<String, RowChange> record) {
        RowChange change = record.value();
        SourceRegistration source = sources.get(change.getSourceId());
        TableProjection projection = source.table(change.getTableName()).orElseThrow();
        PatientIdentityColumns idColumns = source.patientIdentity();
        String tableKey = change.getSourceId() + ":" + change.getTableName();

        if (idColumns != null && change.getTableName().equals(idColumns.table())) {
            rememberPatient(change, idColumns);
        }
        TableGenerations state = TableGenerations.decode(generations.get(tableKey));
        GenerationPlanner.Plan plan = GenerationPlanner.plan(state, change.getOp(), change.getSnapshot());
        generations.put(tableKey, plan.next().encode());

        if (change.getOp() == RowOp.DELETE) {
            append(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId(change.getSourceId())
                    .setTableName(change.getTableName()).setRowKey(change.getRowKey()).setGeneration(0).build());
        } else {
            PatientIdentity patient = patientOf(change, projection, idColumns);
            List<String> pieces = chunker.chunk(RowProjector.header(projection, patient),
                    RowProjector.body(projection, change.getAfter()));
            for (long generation : plan.targets()) {
                append(upsert(change, generation, pieces, patient));
            }
        }
        if (plan.publish() > 0) {
            append(IndexEvent.newBuilder().setKind(IndexEventKind.MARKER).setSourceId(change.getSourceId())
                    .setTableName(change.getTableName()).setGeneration(plan.publish())
                    .setMarker(GenerationMarker.newBuilder().setSourceId(change.getSourceId())
                            .setTableName(change.getTableName()).setGeneration(plan.publish())
                            .setState(GenerationState.PUBLISHED).setRows(state.stagedRows() + 1)
                            .setModelId(embedder.modelId()).setTsMs(record.timestamp()).build())
                    .build());
            LOG.info("table {} generation {} complete, publishing", tableKey, plan.publish());
        }
        if (pendingChunks >= batchChunks) {
            flush();
        }
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

    private PatientIdentity patientOf(RowChange change, TableProjection projection, PatientIdentityColumns idColumns) {
        if (projection.patientColumn() == null) {
            return null;
        }
        String patientId = change.getAfter().get(projection.patientColumn());
        if (patientId == null) {
            return null;
        }
        String known = patients.get(change.getSourceId() + ":" + patientId);
        if (known != null) {
            return PatientIdentity.decode(known);
        }
        return new PatientIdentity(patientId, null, null);
    }

    private IndexEvent upsert(RowChange change, long generation, List<String> pieces, PatientIdentity patient) {
        List<ChunkRecord> chunks = new ArrayList<>(pieces.size());
        for (int i = 0; i < pieces.size(); i++) {
            chunks.add(ChunkRecord.newBuilder()
                    .setChunkId(change.getSourceId() + ":" + change.getTableName() + ":" + change.getRowKey() + ":" + i + ":" + generation)
                    .setSourceId(change.getSourceId()).setTableName(change.getTableName()).setRowKey(change.getRowKey())
                    .setChunkIndex(i).setChunkCount(pieces.size()).setGeneration(generation).setText(pieces.get(i))
                    .setVector(new ArrayList<>()).setPatientKey(patient == null ? null : patient.filterKey())
                    .setSourcePosition(change.getSourcePosition()).setCommitTsMs(change.getCommitTsMs())
                    .setModelId(embedder.modelId()).setDimension(embedder.dimension()).build());
        }
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId(change.getSourceId())
                .setTableName(change.getTableName()).setRowKey(change.getRowKey()).setGeneration(generation)
                .setChunks(chunks).build();
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
        if (pending.isEmpty()) {
            return;
        }
        List<IndexEvent> events = pending.stream().map(kv -> kv.value).toList();
        long t0 = System.nanoTime();
        EmbeddingBatch.embed(events, embedder);
        LOG.debug("embedded {} pending chunks of {} events in {} ms", pendingChunks, events.size(), (System.nanoTime() - t0) / 1_000_000);
        long now = System.currentTimeMillis();
        for (KeyValue<Long, IndexEvent> kv : pending) {
            IndexEvent e = kv.value;
            String key = e.getKind() == IndexEventKind.MARKER
                    ? e.getSourceId() + ":" + e.getTableName()
                    : e.getSourceId() + ":" + e.getTableName() + ":" + e.getRowKey();
            context.forward(new Record<>(key, e, now));
            buffer.delete(kv.key);
        }
        pendingChunks = 0;
    }
}
