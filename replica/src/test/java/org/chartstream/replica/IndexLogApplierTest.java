package org.chartstream.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationMarker;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.junit.jupiter.api.Test;

class IndexLogApplierTest {
    private static final RowRef ROW = new RowRef("ehr", "notes", "n1");
    private static final TableRef NOTES = ROW.tableRef();

    /** The writes the applier makes, in order; it reads nothing. */
    private static final class RecordingStore implements HybridStore {
        final List<String> writes = new ArrayList<>();
        final List<StoredChunk> upserted = new ArrayList<>();

        @Override
        public void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
            writes.add("upsert " + row + " " + generation);
            upserted.addAll(chunks);
        }

        @Override
        public void deleteRow(RowRef row) {
            writes.add("delete " + row);
        }

        @Override
        public void publish(TableRef table, long generation) {
            writes.add("publish " + table + " " + generation);
        }

        @Override
        public void commit(Map<String, String> checkpoint) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, String> checkpoint() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<TableRef, Long> activeGenerations() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countRows(TableRef table) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<StoredChunk> rowChunks(RowRef row) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long chunkCount() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean ready() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    private static IndexEvent marker(long generation, GenerationState state) {
        return IndexEvent.newBuilder().setKind(IndexEventKind.MARKER).setSourceId("ehr").setTableName("notes")
                .setGeneration(generation).setMarker(GenerationMarker.newBuilder().setSourceId("ehr").setTableName("notes")
                        .setGeneration(generation).setState(state).setRows(1).setModelId("m").setTsMs(1).build())
                .build();
    }

    @Test
    void anUpsertGivesTheStoreTheRowsChunksAsItKeepsThem() {
        RecordingStore store = new RecordingStore();
        StoredChunk expected = ChunkFixture.of(ROW).generation(2).text("record: notes\nDry cough.")
                .vector(new float[] {0.25f, 0.5f}).patient("MRN-1").source("lsn:7", 1_700_000_000_000L).build();
        ChunkRecord record = ChunkRecord.newBuilder().setChunkId(expected.chunkId()).setSourceId("ehr").setTableName("notes")
                .setRowKey("n1").setChunkIndex(0).setChunkCount(1).setGeneration(2).setText("record: notes\nDry cough.")
                .setVector(List.of(0.25f, 0.5f)).setPatientKey("MRN-1").setSourcePosition("lsn:7")
                .setCommitTsMs(1_700_000_000_000L).setModelId(ChunkFixture.MODEL).setDimension(2).build();

        new IndexLogApplier(store, 1, Map.of()).apply(IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW)
                .setSourceId("ehr").setTableName("notes").setRowKey("n1").setGeneration(2).setChunks(List.of(record)).build(), 0);

        assertThat(store.writes).containsExactly("upsert ehr:notes:n1 2");
        assertThat(store.upserted).containsExactly(expected);
    }

    @Test
    void theRowsFieldsReachTheStoreOnTheChunkThatCarriesThem() {
        RecordingStore store = new RecordingStore();
        Map<String, String> fields = Map.of("drug", "Lisinopril 10 MG", "route", "PO");
        StoredChunk expected = ChunkFixture.of(ROW).generation(2).text("record: notes\ndrug: Lisinopril 10 MG")
                .vector(new float[] {0.25f, 0.5f}).patient("MRN-1").source("lsn:7", 1_700_000_000_000L).build()
                .withFields(fields);
        ChunkRecord record = ChunkRecord.newBuilder().setChunkId(expected.chunkId()).setSourceId("ehr").setTableName("notes")
                .setRowKey("n1").setChunkIndex(0).setChunkCount(1).setGeneration(2).setText("record: notes\ndrug: Lisinopril 10 MG")
                .setVector(List.of(0.25f, 0.5f)).setPatientKey("MRN-1").setSourcePosition("lsn:7")
                .setCommitTsMs(1_700_000_000_000L).setModelId(ChunkFixture.MODEL).setDimension(2).setFields(fields).build();

        new IndexLogApplier(store, 1, Map.of()).apply(IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW)
                .setSourceId("ehr").setTableName("notes").setRowKey("n1").setGeneration(2).setChunks(List.of(record)).build(), 0);

        assertThat(store.upserted).singleElement().satisfies(c -> {
            assertThat(c).isEqualTo(expected);
            assertThat(c.fields()).containsExactlyInAnyOrderEntriesOf(fields);
        });
    }

    @Test
    void aGenerationIsPublishedOnceItsMarkerHasBeenReadOnEveryPartition() {
        RecordingStore store = new RecordingStore();
        IndexLogApplier applier = new IndexLogApplier(store, 2, Map.of());

        applier.apply(marker(3, GenerationState.PUBLISHED), 0);
        applier.apply(marker(3, GenerationState.PUBLISHED), 0);
        assertThat(store.writes).isEmpty();
        applier.apply(marker(3, GenerationState.PUBLISHED), 1);

        assertThat(store.writes).containsExactly("publish " + NOTES + " 3");
        assertThat(applier.pendingMarkerCheckpoint()).isEmpty();
    }

    @Test
    void markersStillWaitingForOtherPartitionsOutliveARestartThroughTheCheckpoint() {
        IndexLogApplier before = new IndexLogApplier(new RecordingStore(), 2, Map.of());
        before.apply(marker(3, GenerationState.PUBLISHED), 1);
        Map<String, String> checkpoint = before.pendingMarkerCheckpoint();

        RecordingStore store = new RecordingStore();
        new IndexLogApplier(store, 2, checkpoint).apply(marker(3, GenerationState.PUBLISHED), 0);

        assertThat(store.writes).containsExactly("publish " + NOTES + " 3");
    }

    @Test
    void aDeleteRemovesTheRowWhileTombstonesAndMarkersOfUnpublishedGenerationsChangeNothing() {
        RecordingStore store = new RecordingStore();
        IndexLogApplier applier = new IndexLogApplier(store, 1, Map.of());

        applier.apply(null, 0);
        applier.apply(marker(4, GenerationState.STAGED), 0);
        applier.apply(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey("n1").setGeneration(0).build(), 0);

        assertThat(store.writes).containsExactly("delete " + ROW);
    }
}
