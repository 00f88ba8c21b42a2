package org.chartstream.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationMarker;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

class IndexLogRecordsTest {
    private static final AvroSerde<IndexEvent> EVENTS = AvroSerde.of(IndexEvent.class);
    private static final IndexContract HOLDS_M = new IndexContract(3, "m");

    static ChunkRecord chunk(String rowKey, int dimension, int values) {
        List<Float> vector = new ArrayList<>();
        for (int i = 0; i < values; i++) {
            vector.add(0.5f);
        }
        return ChunkRecord.newBuilder().setChunkId(StoredChunk.chunkId(new RowRef("ehr", "notes", rowKey), 0, 1)).setSourceId("ehr").setTableName("notes")
                .setRowKey(rowKey).setChunkIndex(0).setChunkCount(1).setGeneration(1).setText("t").setVector(vector)
                .setSourcePosition("lsn").setCommitTsMs(1).setModelId("m").setDimension(dimension).build();
    }

    static IndexEvent upsert(String rowKey, ChunkRecord... chunks) {
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey(rowKey).setGeneration(1).setChunks(List.of(chunks)).build();
    }

    @Test
    void aWellFormedUpsertIsReadable() {
        var read = IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 3, 3))), HOLDS_M);
        assertThat(read.readable()).isTrue();
        assertThat(read.event().getRowKey()).isEqualTo("r1");
    }

    @Test
    void aTombstoneIsNeitherAnEventNorAProblem() {
        var read = IndexLogRecords.read(null, HOLDS_M);
        assertThat(read.readable()).isTrue();
        assertThat(read.event()).isNull();
    }

    @Test
    void aReplyEventWrittenIntoTheLogIsNotAnIndexEvent() {
        byte[] reply = AvroSerde.of(ReplyEvent.class).serialize(ReplyEvent.newBuilder().setRequestId("r").setSeq(0)
                .setType(ReplyType.ERROR).setTsMs(1).build());
        var read = IndexLogRecords.read(reply, HOLDS_M);
        assertThat(read.readable()).isFalse();
        assertThat(read.problem()).startsWith("not an IndexEvent");
    }

    @Test
    void garbageAndTruncatedEventsAreNotIndexEvents() {
        byte[] good = EVENTS.serialize(upsert("r1", chunk("r1", 3, 3)));
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        assertThat(IndexLogRecords.read("{\"kind\":\"UPSERT_ROW\"}".getBytes(StandardCharsets.UTF_8), HOLDS_M).problem()).startsWith("not an IndexEvent");
        assertThat(IndexLogRecords.read(truncated, HOLDS_M).problem()).startsWith("not an IndexEvent");
        assertThat(IndexLogRecords.read(new byte[0], HOLDS_M).problem()).startsWith("not an IndexEvent");
    }

    @Test
    void anEventWhoseVectorsDoNotFitTheStoreIsUnreadable() {
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 4, 4))), HOLDS_M).problem())
                .contains("vector of 4 values").contains("the store holds 3");
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 3, 2))), HOLDS_M).problem()).contains("vector of 2 values");
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 4, 4))), IndexContract.ANY).readable()).isTrue();
    }

    @Test
    void chunksOfAnotherRowAndRowEventsWithoutAKeyAreUnreadable() {
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r2", 3, 3))), HOLDS_M).problem()).contains("another row");
        IndexEvent delete = IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setGeneration(0).build();
        assertThat(IndexLogRecords.read(EVENTS.serialize(delete), HOLDS_M).problem()).isEqualTo("DELETE_ROW event without a row_key");
    }

    @Test
    void aMarkerNeedsNoRowKey() {
        IndexEvent marker = IndexEvent.newBuilder().setKind(IndexEventKind.MARKER).setSourceId("ehr").setTableName("notes")
                .setGeneration(2).setMarker(GenerationMarker.newBuilder().setSourceId("ehr").setTableName("notes").setGeneration(2)
                .setState(GenerationState.PUBLISHED).setModelId("m").setTsMs(1).build()).build();
        assertThat(IndexLogRecords.read(EVENTS.serialize(marker), HOLDS_M).readable()).isTrue();
    }

    @Test
    void aChunkOfAnotherEmbeddingModelIsNotApplied() {
        IndexContract holdsE5 = new IndexContract(3, "e5-small-v2");
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 3, 3))), holdsE5).problem())
                .isEqualTo("chunk 0 was embedded by model 'm', the store holds model 'e5-small-v2'");
        assertThat(IndexLogRecords.read(EVENTS.serialize(upsert("r1", chunk("r1", 3, 3))), new IndexContract(3, "")).readable()).isTrue();
    }
}
