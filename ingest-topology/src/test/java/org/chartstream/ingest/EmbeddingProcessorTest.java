package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.EmbeddingBuffer;
import org.chartstream.ingest.embed.EmbeddingPace;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.LengthEmbedder;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.publish.IndexEvents;
import org.chartstream.ingest.status.EmbedProgress;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedding task of repartition partition 2 of 3. */
class EmbeddingProcessorTest {
    private static final int PARTITION = 2;
    private final List<Integer> embedCalls = new ArrayList<>();
    private final PassageEmbedder model = new LengthEmbedder(texts -> embedCalls.add(texts.size()));
    private final IndexEvents events = new IndexEvents(model);

    @TempDir
    File stateDir;
    private MockProcessorContext<String, Object> context;
    private EmbeddingProcessor processor;
    private final AtomicInteger openTasks = new AtomicInteger();
    private final UnreadableRecordCounts unreadable = new UnreadableRecordCounts();
    private final EmbeddingPace pace = new EmbeddingPace(EmbeddingBuffer.EMBEDDING_BUDGET);

    @BeforeEach
    void open() {
        context = new MockProcessorContext<>(new Properties(), new TaskId(1, PARTITION), stateDir);
        context.setCurrentSystemTimeMs(1_000);
        KeyValueStore<Long, IndexEvent> buffer = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(EmbeddingProcessor.BUFFER_STORE),
                Serdes.Long(), AvroSerde.of(IndexEvent.class)).withLoggingDisabled().build();
        KeyValueStore<String, String> progress = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(EmbeddingProcessor.PROGRESS_STORE),
                Serdes.String(), Serdes.String()).withLoggingDisabled().build();
        buffer.init(context.getStateStoreContext(), buffer);
        progress.init(context.getStateStoreContext(), progress);
        context.addStateStore(buffer);
        context.addStateStore(progress);
        processor = newProcessor();
        processor.init(context);
    }

    private EmbeddingProcessor newProcessor() {
        return new EmbeddingProcessor(model, new FlushRule(3, Duration.ofMillis(10), Duration.ofMillis(500)), "instance-a", openTasks,
                pace, unreadable);
    }

    private IndexEvent upsert(String rowKey) {
        return events.upsert(new RowChunks("ehr", "notes", rowKey, List.of("record: notes\ntext of " + rowKey), "MRN-1", "lsn:1", 1), 1);
    }

    private void receive(IndexEvent event) {
        processor.process(new Record<>(IndexEvents.key(event).getBytes(StandardCharsets.UTF_8),
                AvroSerde.of(IndexEvent.class).serialize("", event), 0));
    }

    private List<IndexEvent> forwardedTo(String child) {
        return context.forwarded().stream().filter(f -> f.childName().orElseThrow().equals(child))
                .map(f -> (IndexEvent) f.record().value()).toList();
    }

    @Test
    void aMarkerLeavesOnlyAfterTheRowsBeforeItAreEmbeddedAndEverythingGoesToTheIndexPartitionOfTheTask() {
        receive(upsert("n1"));
        receive(events.published("ehr", "notes", 1, 3, 5));
        assertThat(context.forwarded()).as("a partial batch waits, and so does the marker behind it").isEmpty();

        context.setCurrentSystemTimeMs(1_100); // past the quiet time
        punctuate();

        List<IndexEvent> out = forwardedTo(EmbeddingProcessor.indexChild(PARTITION));
        assertThat(out).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        assertThat(out.getFirst().getChunks()).allSatisfy(c -> assertThat(c.getVector()).hasSize(2));
        assertThat(context.forwarded()).extracting(f -> f.childName().orElseThrow())
                .containsOnly(EmbeddingProcessor.indexChild(PARTITION), EmbeddingProcessor.PROGRESS_CHILD);
        assertThat(context.committed()).isTrue();
    }

    private void punctuate() {
        livePunctuators(context).getFirst().getPunctuator().punctuate(context.currentSystemTimeMs());
    }

    private static List<MockProcessorContext.CapturedPunctuator> livePunctuators(MockProcessorContext<?, ?> context) {
        return context.scheduledPunctuators().stream().filter(p -> !p.cancelled()).toList();
    }

    @Test
    void anIdleTaskKeepsNoTimerSoItAsksForNoTransactionAndArmsOneOnlyUntilWhatArrivedIsFlushed() {
        assertThat(livePunctuators(context)).as("an empty buffer after start").isEmpty();

        receive(upsert("n1"));
        receive(upsert("n2"));
        assertThat(livePunctuators(context)).hasSize(1);

        context.setCurrentSystemTimeMs(1_100);
        punctuate();
        assertThat(forwardedTo(EmbeddingProcessor.indexChild(PARTITION))).extracting(IndexEvent::getRowKey).containsExactly("n1", "n2");
        assertThat(livePunctuators(context)).as("nothing left to flush").isEmpty();

        receive(upsert("n3"));
        assertThat(livePunctuators(context)).hasSize(1);
    }

    @Test
    void eventsKeptInTheBufferBeforeARestartAreFlushedWithoutNewInput() {
        receive(upsert("n1"));
        processor.close();

        MockProcessorContext<String, Object> restarted = new MockProcessorContext<>(new Properties(), new TaskId(1, PARTITION), stateDir);
        restarted.setCurrentSystemTimeMs(2_000);
        restarted.addStateStore(context.getStateStore(EmbeddingProcessor.BUFFER_STORE));
        restarted.addStateStore(context.getStateStore(EmbeddingProcessor.PROGRESS_STORE));
        newProcessor().init(restarted);

        assertThat(livePunctuators(restarted)).hasSize(1);
        restarted.setCurrentSystemTimeMs(2_100);
        livePunctuators(restarted).getFirst().getPunctuator().punctuate(2_100);
        assertThat(restarted.forwarded()).filteredOn(f -> f.childName().orElseThrow().equals(EmbeddingProcessor.indexChild(PARTITION)))
                .extracting(f -> ((IndexEvent) f.record().value()).getRowKey()).containsExactly("n1");
    }

    @Test
    void aFullBatchIsEmbeddedAtTheNextPunctuationNotWhileRecordsArriveAndKeepsTheOrderOfRowsAndDeletes() {
        receive(upsert("n1"));
        receive(IndexEvents.deleteRow("ehr", "notes", "n0"));
        receive(upsert("n2"));
        receive(upsert("n3"));
        receive(upsert("n4"));
        assertThat(embedCalls).as("records only fill the buffer: a Streams loop must not hold a slice per record").isEmpty();

        punctuate();

        assertThat(embedCalls).containsExactly(1, 1, 1);
        assertThat(forwardedTo(EmbeddingProcessor.indexChild(PARTITION))).extracting(IndexEvent::getRowKey)
                .containsExactly("n1", "n0", "n2", "n3");
    }

    @Test
    void eachFlushAnnouncesThePartitionsProgressUnderTheInstanceThatEmbeddedIt() {
        receive(upsert("n1"));
        receive(upsert("n2"));
        receive(upsert("n3"));
        receive(upsert("n4"));
        receive(upsert("n5"));
        receive(upsert("n6"));
        punctuate();
        punctuate();

        List<EmbeddingProgress> progress = context.forwarded().stream()
                .filter(f -> f.childName().orElseThrow().equals(EmbeddingProcessor.PROGRESS_CHILD))
                .map(f -> (EmbeddingProgress) f.record().value()).toList();
        assertThat(progress).extracting(EmbeddingProgress::getPartition, EmbeddingProgress::getInstance, EmbeddingProgress::getChunks)
                .containsExactly(org.assertj.core.api.Assertions.tuple(PARTITION, "instance-a", 3L),
                        org.assertj.core.api.Assertions.tuple(PARTITION, "instance-a", 6L));
        List<String> keys = context.forwarded().stream().filter(f -> f.childName().orElseThrow().equals(EmbeddingProcessor.PROGRESS_CHILD))
                .map(f -> (String) f.record().key()).distinct().toList();
        assertThat(keys).containsExactly(EmbedProgress.key(PARTITION));
    }

    @Test
    void theProcessCountsItsOpenEmbeddingTasksWhichShareTheTransactionBudget() {
        assertThat(openTasks.get()).isEqualTo(1);
        processor.close();
        assertThat(openTasks.get()).isZero();
    }

    @Test
    void aRecordThatIsNotAnIndexEventIsDeadLetteredAndCountedAndTheNextOneIsEmbedded() {
        context.setRecordMetadata("chartstream.ingest.embed", PARTITION, 41);
        processor.process(new Record<>("k".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8), 0));
        receive(upsert("n1"));
        context.setCurrentSystemTimeMs(1_100);
        punctuate();

        assertThat(unreadable.snapshot()).containsEntry(
                new UnreadableRecordCounts.Source("chartstream.ingest.embed", IngestTopology.EMBEDDING_CONSUMER_NAME), 1L);
        assertThat(context.forwarded()).filteredOn(f -> f.childName().orElseThrow().equals(EmbeddingProcessor.DEAD_LETTER_CHILD)).hasSize(1);
        assertThat(forwardedTo(EmbeddingProcessor.indexChild(PARTITION))).extracting(IndexEvent::getRowKey).containsExactly("n1");
    }

    private IndexEvent result(String rowKey, String value, String embedText) {
        return events.upsert(new RowChunks("ehr", "results", rowKey, List.of("record: results\nlab test: Potassium\nvalue: " + value),
                "MRN-1", null, "lsn:1", 1, java.util.Map.of("value", value), embedText), 1);
    }

    @Test
    void rowsWithOneEmbedTextCostOneModelCallAndShareItsVectorWhileKeepingTheirOwnText() {
        for (int i = 0; i < 7; i++) {
            receive(result("r" + i, "4." + i, "lab test: Potassium"));
        }
        for (int flush = 0; flush < 5 && forwardedTo(EmbeddingProcessor.indexChild(PARTITION)).size() < 7; flush++) {
            context.setCurrentSystemTimeMs(context.currentSystemTimeMs() + 100);
            punctuate();
        }

        List<IndexEvent> out = forwardedTo(EmbeddingProcessor.indexChild(PARTITION));
        assertThat(out).hasSize(7);
        assertThat(embedCalls).as("one model call of one text for seven rows").containsExactly(1);
        assertThat(out).allSatisfy(e -> assertThat(e.getChunks().getFirst().getVector())
                .isEqualTo(List.of((float) "lab test: Potassium".length(), 0f)));
        assertThat(out).extracting(e -> e.getChunks().getFirst().getText()).doesNotHaveDuplicates()
                .allSatisfy(t -> assertThat(t).startsWith("record: results\nlab test: Potassium\nvalue: 4."));
    }

    @Test
    void aTextEmbeddedInAnEarlierFlushIsNotEmbeddedAgainAndTheTasksOfAProcessShareWhatTheyEmbedded() {
        receive(upsert("n1"));
        context.setCurrentSystemTimeMs(1_100);
        punctuate();
        receive(upsert("n1")); // the same row text again (e.g. written to a staged generation)
        context.setCurrentSystemTimeMs(1_200);
        punctuate();

        assertThat(forwardedTo(EmbeddingProcessor.indexChild(PARTITION))).hasSize(2);
        assertThat(embedCalls).containsExactly(1);
        assertThat(pace.vectors().hits()).isEqualTo(1);
    }
}
