package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
    private long msPerChunk;
    private final PassageEmbedder model = new LengthEmbedder(texts -> {
        calls.add(texts);
        this.nowMs += msPerChunk * texts.size();
    });
    private final EmbeddingPace pace = new EmbeddingPace(EmbeddingBuffer.EMBEDDING_BUDGET, () -> this.nowMs);
    private KeyValueStore<Long, IndexEvent> store;
    private long nowMs = 1_000;

    private EmbeddingBuffer buffer(int batchChunks) {
        return new EmbeddingBuffer(store, model, new FlushRule(batchChunks, Duration.ofMillis(10), Duration.ofMillis(500)), () -> nowMs,
                pace, () -> 1);
    }

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
        EmbeddingBuffer buffer = buffer(3);
        buffer.append(upsert("n1", "a", "b"));
        assertThat(buffer.full()).isFalse();
        buffer.append(upsert("n2", "c"));
        assertThat(buffer.full()).isTrue();
    }

    @Test
    void aFlushEmbedsEachPendingTextOnceInItsOwnCallAndForwardsTheEventsInAppendOrder() {
        EmbeddingBuffer buffer = buffer(8);
        buffer.append(upsert("n2", "second row"));
        buffer.append(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey("n9").setGeneration(0).build());
        buffer.append(upsert("n1", "first row", "second row"));
        List<IndexEvent> forwarded = new ArrayList<>();

        buffer.flush(forwarded::add);

        assertThat(calls).containsExactly(List.of("second row"), List.of("first row"));
        assertThat(forwarded).extracting(IndexEvent::getRowKey).containsExactly("n2", "n9", "n1");
        assertThat(forwarded.get(2).getChunks()).extracting(c -> c.getVector().get(0)).containsExactly(9f, 10f);
        assertThat(store.approximateNumEntries()).isZero();
        assertThat(buffer.full()).isFalse();
    }

    @Test
    void aBufferOverEventsARunLeftPendingCountsTheirChunksAndAppendsAfterThem() {
        EmbeddingBuffer before = buffer(3);
        before.append(upsert("n1", "a", "b"));

        EmbeddingBuffer after = buffer(3);
        assertThat(after.full()).isFalse();
        after.append(upsert("n2", "c"));
        assertThat(after.full()).isTrue();
        List<IndexEvent> forwarded = new ArrayList<>();
        after.flush(forwarded::add);
        assertThat(forwarded).extracting(IndexEvent::getRowKey).containsExactly("n1", "n2");
    }

    @Test
    void aFlushIsDueOnceAppendsStopForTheQuietTime() {
        EmbeddingBuffer buffer = buffer(8);
        assertThat(buffer.empty()).isTrue();
        assertThat(buffer.flushDue()).isFalse();
        buffer.append(upsert("n1", "a"));
        nowMs += 6;
        buffer.append(upsert("n2", "b"));
        nowMs += 6;
        assertThat(buffer.flushDue()).as("6 ms after the last append").isFalse();
        nowMs += 4;
        assertThat(buffer.flushDue()).isTrue();
        buffer.flush(e -> { });
        assertThat(buffer.empty()).isTrue();
        assertThat(buffer.flushDue()).isFalse();
    }

    @Test
    void aBatchFilledWithoutPauseIsDueAtTheLingerCountedFromItsFirstEvent() {
        EmbeddingBuffer buffer = buffer(1_000);
        for (int i = 0; i < 100; i++) {
            buffer.append(upsert("n" + i, "t"));
            assertThat(buffer.flushDue()).as("after %d ms", nowMs - 1_000).isFalse();
            nowMs += 5;
        }
        assertThat(buffer.flushDue()).as("500 ms after the first append, 5 ms after the last").isTrue();
    }

    @Test
    void eventsARunLeftPendingAreDueOnceTheBufferHasBeenOpenForTheQuietTime() {
        buffer(8).append(upsert("n1", "a"));
        nowMs += 1_000;
        EmbeddingBuffer reopened = buffer(8);
        assertThat(reopened.empty()).isFalse();
        assertThat(reopened.flushDue()).isFalse();
        nowMs += 10;
        assertThat(reopened.flushDue()).isTrue();
    }

    @Test
    void afterASlowFlushBatchesShrinkToWhatTheModelEmbedsWithinTheBudget() {
        EmbeddingBuffer buffer = buffer(64);
        msPerChunk = 400; // 2.5 chunks/s: 64 chunks would hold the transaction open for 25.6 s
        for (int i = 0; i < 40; i++) {
            buffer.append(upsert("n" + i, "text " + i));
        }
        assertThat(buffer.flush(e -> { })).as("the first slice ends when the budget is spent").isFalse();
        assertThat(buffer.batchChunks()).isEqualTo((int) (EmbeddingBuffer.EMBEDDING_BUDGET.toMillis() / 400));
        while (!buffer.flush(e -> { })) {
            assertThat(calls.getLast()).hasSize(1);
        }

        for (int i = 0; i < 9; i++) {
            buffer.append(upsert("m" + i, "more " + i));
        }
        assertThat(buffer.full()).isFalse();
        buffer.append(upsert("m9", "more 9"));
        assertThat(buffer.full()).isTrue();
        assertThat(buffer.flushDue()).isTrue();
    }

    @Test
    void aBufferOpenedAgainAfterARebalanceStartsFromThePaceTheProcessMeasuredAndSharesItsBudgetWithTheOtherTasks() {
        EmbeddingBuffer before = buffer(64);
        msPerChunk = 400;
        for (int i = 0; i < 40; i++) {
            before.append(upsert("n" + i, "text " + i));
        }
        before.flush(e -> { });

        EmbeddingBuffer reopened = buffer(64);
        assertThat(reopened.batchChunks()).as("not the full configured batch that timed out").isEqualTo(10);
        EmbeddingBuffer sharing = new EmbeddingBuffer(store, model, new FlushRule(64, Duration.ofMillis(10), Duration.ofMillis(500)),
                () -> nowMs, pace, () -> 2);
        assertThat(sharing.batchChunks()).as("two tasks' flushes in one transaction").isEqualTo(5);
    }

    private static IndexEvent upsertOfChunks(String rowKey, int chunks) {
        String[] texts = new String[chunks];
        for (int i = 0; i < chunks; i++) {
            texts[i] = rowKey + " chunk " + i;
        }
        return upsert(rowKey, texts);
    }

    @Test
    void aRowWithMoreChunksThanOneSliceEmbedsGoesOutWholeAfterSeveralSlicesItsVectorsSoFarKeptInTheStore() {
        msPerChunk = 1_000; // 10 chunks take 10 s: more than the 4 s budget, and the 10 s transaction timeout
        EmbeddingBuffer buffer = buffer(64);
        buffer.append(upsertOfChunks("huge", 10));
        buffer.append(IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("notes")
                .setRowKey("n9").setGeneration(0).build());
        List<IndexEvent> forwarded = new ArrayList<>();

        assertThat(buffer.flush(forwarded::add)).isFalse();
        assertThat(calls).hasSize(4);
        assertThat(forwarded).as("neither the part-embedded row nor the delete behind it").isEmpty();

        EmbeddingBuffer reopened = buffer(64); // as after a commit and a restart: the slice's vectors are in the store
        assertThat(reopened.flush(forwarded::add)).isFalse();
        assertThat(calls).hasSize(8);
        assertThat(reopened.flush(forwarded::add)).isTrue();

        assertThat(calls).as("every chunk embedded once").hasSize(10);
        assertThat(forwarded).extracting(IndexEvent::getRowKey).containsExactly("huge", "n9");
        assertThat(forwarded.getFirst().getChunks()).allSatisfy(c -> assertThat(c.getVector()).hasSize(2));
        assertThat(store.approximateNumEntries()).isZero();
    }

    @Test
    void aSliceEndsOnceItHasTakenTheBudgetEvenWhenTheModelSlowsDownAfterThePaceWasMeasured() {
        EmbeddingBuffer buffer = buffer(64);
        msPerChunk = 10;
        buffer.append(upsertOfChunks("fast", 8));
        buffer.flush(e -> { });
        assertThat(buffer.batchChunks()).as("the pace measured before the load rose").isEqualTo(64);

        msPerChunk = 2_000; // the machine got busy
        buffer.append(upsertOfChunks("slow", 20));
        calls.clear();
        long started = nowMs;
        buffer.flush(e -> { });

        assertThat(calls).as("texts embedded before 4 s were spent").hasSize(2);
        assertThat(nowMs - started).isEqualTo(4_000);
    }

    @Test
    void rowsWhoseTextTheCacheHoldsPassBeyondTheBatchInOneFlushUpToTheSlicesEventBound() {
        EmbeddingBuffer buffer = buffer(2);
        pace.vectors().put("lab test: Potassium", new float[] {1f, 2f});
        int rows = EmbeddingBuffer.MAX_SLICE_EVENTS + 5;
        for (int i = 0; i < rows; i++) {
            IndexEvent row = upsert("r" + i, "record: results\nvalue: " + i);
            row.setEmbedText("lab test: Potassium");
            buffer.append(row);
        }
        buffer.append(upsert("n1", "a note"));
        List<IndexEvent> forwarded = new ArrayList<>();

        buffer.flush(forwarded::add);

        assertThat(calls).as("no model call for a cached text").isEmpty();
        assertThat(forwarded).hasSize(EmbeddingBuffer.MAX_SLICE_EVENTS)
                .allSatisfy(e -> assertThat(e.getChunks().getFirst().getVector()).containsExactly(1f, 2f));

        buffer.flush(forwarded::add);

        assertThat(forwarded).hasSize(rows + 1);
        assertThat(calls).containsExactly(List.of("a note"));
        assertThat(buffer.empty()).isTrue();
    }
}
