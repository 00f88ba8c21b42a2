package org.chartstream.ingest.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationMarker;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;

/** The records the ingest side writes to the index log, stamped with the embedding model they are for. */
public final class IndexEvents {
    private final PassageEmbedder model;

    public IndexEvents(PassageEmbedder model) {
        this.model = model;
    }

    /**
     * A row's chunks written to one generation, their vectors still empty (the embedding batch fills them); the row's
     * fields on its first chunk only (a store counts a row by it, and the record stays small), and the text the model
     * reads for all its chunks when its table's embedding policy names fields (null otherwise). Chunk
     * ids are {@link RowRef#chunkId}'s, built from the parts: a RowRef refuses the empty primary key a source table
     * may hold (the replica dead-letters such a row instead of stopping ingest).
     */
    public IndexEvent upsert(RowChunks row, long generation) {
        List<ChunkRecord> chunks = new ArrayList<>(row.count());
        for (int i = 0; i < row.count(); i++) {
            chunks.add(ChunkRecord.newBuilder()
                    .setChunkId(RowRef.chunkId(row.sourceId(), row.table(), row.rowKey(), i, generation))
                    .setSourceId(row.sourceId()).setTableName(row.table()).setRowKey(row.rowKey())
                    .setChunkIndex(i).setChunkCount(row.count()).setGeneration(generation).setText(row.pieces().get(i))
                    .setVector(new ArrayList<>()).setPatientKey(row.patientKey())
                    .setPatientNumber(row.patient() == null ? null : row.patient().number())
                    .setPatientName(row.patient() == null ? null : row.patient().name())
                    .setPatientBirthYear(row.patient() == null ? null : row.patient().birthYear())
                    .setFields(i == 0 ? row.fields() : Map.of())
                    .setSourcePosition(row.position()).setCommitTsMs(row.commitTsMs())
                    .setModelId(model.modelId()).setDimension(model.dimension()).build());
        }
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId(row.sourceId())
                .setTableName(row.table()).setRowKey(row.rowKey()).setGeneration(generation).setChunks(chunks)
                .setEmbedText(row.embedText()).build();
    }

    /** A row leaving every generation. */
    public static IndexEvent deleteRow(String sourceId, String table, String rowKey) {
        return IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId(sourceId)
                .setTableName(table).setRowKey(rowKey).setGeneration(0).build();
    }

    /** The marker that publishes a complete generation of {@code rows} rows. */
    public IndexEvent published(String sourceId, String table, long generation, long rows, long tsMs) {
        return IndexEvent.newBuilder().setKind(IndexEventKind.MARKER).setSourceId(sourceId).setTableName(table)
                .setGeneration(generation)
                .setMarker(GenerationMarker.newBuilder().setSourceId(sourceId).setTableName(table)
                        .setGeneration(generation).setState(GenerationState.PUBLISHED).setRows(rows)
                        .setModelId(model.modelId()).setTsMs(tsMs).build())
                .build();
    }

    /** The index-log key: {@code source:table} for a marker, {@code source:table:rowKey} for a row. */
    public static String key(IndexEvent event) {
        return event.getKind() == IndexEventKind.MARKER
                ? new TableRef(event.getSourceId(), event.getTableName()).id()
                : RowRef.id(event.getSourceId(), event.getTableName(), event.getRowKey());
    }
}
