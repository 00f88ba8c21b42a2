package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmbeddingBufferTest {
    private final List<List<String>> calls = new ArrayList<>();
    private final PassageEmbedder model = new PassageEmbedder() {
        @Override
        public String modelId() {
            return "test-model";
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public float[][] embedPassages(List<String> texts) {
            calls.add(texts);
            float[][] vectors = new float[texts.size()][];
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = new float[] {texts.get(i).length(), i};
            }
            return vectors;
        }
    };
    private KeyValueStore<Long, IndexEvent> store;

    @BeforeEach
    void openStore() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("embedding-buffer"), Serdes.Long(),
                AvroSerde.of(IndexEvent.class)).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    }

    private static IndexEvent upsert(String rowKey, String... texts) {
        List<ChunkRecord> chunks = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            chunks.add(ChunkRecord.newBuilder().setChunkId(StoredChunk.chunkId(new RowRef("ehr", "notes", rowKey), i, 1)).setSourceId("ehr")
                    .setTableName("notes").setRowKey(rowKey).setChunkIndex(i).setChunkCount(texts.length).setGeneration(1)
                    .setText(texts[i]).setVector(new ArrayList<>()).setSourcePosition("lsn").setCommitTsMs(1)
                    .setModelId("test-model").setDimension(2).build());
        }
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey(rowKey).setGeneration(1).setChunks(chunks).build();
    }

    @Test
    void itIsFullOnceABatchOfChunksIsPending() {
        EmbeddingBuffer buffer = new EmbeddingBuffer(store, model, 3);
        buffer.append(upsert("n1", "a", "b"));
        assertThat(buffer.full()).isFalse();
        buffer.append(upsert("n2", "c"));
        assertThat(buffer.full()).isTrue();
    }

    @Test
    void aFlushEmbedsEveryPendingChunkInOneCallAndForwardsTheEventsInAppendOrder() {
        EmbeddingBuffer buffer = new EmbeddingBuffer(store, model, 8);
        buffer.append(upsert("n2", "second row"));
        buffer.append(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey("n9").setGeneration(0).build());
        buffer.append(upsert("n1", "first row", "second row"));
        List<IndexEvent> forwarded = new ArrayList<>();

        buffer.flush(forwarded::add);

        assertThat(calls).containsExactly(List.of("second row", "first row"));
        assertThat(forwarded).extracting(IndexEvent::getRowKey).containsExactly("n2", "n9", "n1");
        assertThat(forwarded.get(2).getChunks()).extracting(c -> c.getVector().get(0)).containsExactly(9f, 10f);
        assertThat(store.approximateNumEntries()).isZero();
        assertThat(buffer.full()).isFalse();
    }

    @Test
    void aBufferOverEventsARunLeftPendingCountsTheirChunksAndAppendsAfterThem() {
        EmbeddingBuffer before = new EmbeddingBuffer(store, model, 3);
        before.append(upsert("n1", "a", "b"));

        EmbeddingBuffer after = new EmbeddingBuffer(store, model, 3);
        assertThat(after.full()).isFalse();
        after.append(upsert("n2", "c"));
        assertThat(after.full()).isTrue();
        List<IndexEvent> forwarded = new ArrayList<>();
        after.flush(forwarded::add);
        assertThat(forwarded).extracting(IndexEvent::getRowKey).containsExactly("n1", "n2");
    }
}
