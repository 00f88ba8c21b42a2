package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.chartstream.client.QueryClient;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.store.TableRef;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.PipelineTopics;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults on the real components, one broker and one PostgreSQL owned by the test for the whole class (they outlive
 * the pipeline processes), a writer changing rows throughout: the pipeline process killed (SIGKILL) while a
 * re-index is being built and again while its generation is being published, the Lucene store reopened after each
 * kill, the broker restarted in place, the source database restarted while Debezium streams. After each fault
 * {@link FaultInvariants} must hold: every source row searchable exactly once with its current content, nothing
 * deleted searchable, one whole generation visible, every citation of an answer resolving to a stored chunk.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultMatrixIT {
    static final int ROWS = 300;
    static final String SOURCE = "ehr";
    static final TableRef NOTES = new TableRef(SOURCE, NotesTable.TABLE);
    static final String REPLIES = "chartstream.replies.fault";
    static final Duration CONVERGENCE = Duration.ofSeconds(150);
    private static final List<Integer> GONE = Collections.synchronizedList(new ArrayList<>());
    private static long t0;
    private static Path work;
    private static Path run;
    private static Path configFile;
    private static EmbeddedKafkaBroker kafka;
    private static EmbeddedPostgresSource pg;
    private static IndexLogWatcher index;
    private static ChangeWriter reindexWriter;
    private static PipelineRuntime runtime;

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        t0 = System.nanoTime();
        work = Path.of("target", "it", "FaultMatrixIT-" + System.currentTimeMillis()).toAbsolutePath();
        run = work.resolve("run");
        Files.createDirectories(work);
        kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"));
        pg = EmbeddedPostgresSource.start(work.resolve("pg"));
        try (Connection c = source()) {
            NotesTable.create(c, SourceKind.POSTGRES);
            NotesTable.insert(c, 1, ROWS);
        }
        PipelineTopics.ensure(kafka.bootstrapServers(), List.of(new PipelineTopics.Spec(Topics.INDEX, 3, false),
                new PipelineTopics.Spec(org.chartstream.schemas.Topics.INGEST_STATUS, 1, true), new PipelineTopics.Spec(REPLIES, 1, false)), List.of());
        configFile = PipelineConfigFile.write(work, kafka.bootstrapServers(), SOURCE, PostgresAbruptStopIT.sourceConfiguration(pg));
        // a re-index embeds the texts it already embedded: with the vector cache it is published in one slice, and the
        // kill below must find it half built
        Files.writeString(configFile, "ingest.vector-cache-texts=0\n", StandardOpenOption.APPEND);
        index = new IndexLogWatcher(kafka.bootstrapServers());
        log("broker, database with " + ROWS + " rows");
    }

    @AfterAll
    static void stop() throws Exception {
        if (reindexWriter != null) {
            reindexWriter.close();
        }
        if (runtime != null) {
            runtime.close();
        }
        if (index != null) {
            index.close();
        }
        if (pg != null) {
            pg.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        log("done");
    }

    @Test
    @Order(1)
    void killedWhileAReindexIsBuiltTheReopenedStoreIsItsCheckpointAndStillServesTheOldGeneration() throws Exception {
        try (ChildPipeline child = startChild()) {
            index.await(() -> index.markers(1) >= 3, child, Duration.ofSeconds(180));
            log("snapshot published as generation 1");
            // the store commits at most a second after applying an event: wait for that commit, so that the kill
            // below tests a reopened checkpoint that holds generation 1, not one taken before its publication
            Map<Integer, Long> published = index.positions();
            index.await(() -> CrashedStoreCheck.committedUpTo(run.resolve("index"), published), child, Duration.ofSeconds(60));
            reindexWriter = new ChangeWriter(FaultMatrixIT::source, 1, 10_000, 100).start();
            IngestControlClient.requestReindex(kafka.bootstrapServers(), new org.chartstream.core.store.TableRef(SOURCE, NotesTable.TABLE));
            index.await(() -> index.upserts(2) >= ROWS / 10, child, Duration.ofSeconds(120));
            long markersAtKill = index.markers(2);
            child.kill();
            assertThat(markersAtKill).as("killed before generation 2 was published").isZero();
            log("killed while building generation 2 (" + index.upserts(2) + " of its rows in the index log)");
        }
        CrashedStoreCheck.Result reopened = CrashedStoreCheck.check(run.resolve("index"), work.resolve("replay-1"),
                kafka.bootstrapServers(), NOTES, 2);
        log("reopened store: " + reopened);
        assertThat(reopened.differences()).as("reopened store against the index log up to its checkpoint").isEmpty();
        assertThat(reopened.activeGeneration()).as("the old generation stays active").isEqualTo(1);
    }

    @Test
    @Order(2)
    void killedWhileTheGenerationIsPublishedItIsAllOrNothingAndCompletesAfterTheRestart() throws Exception {
        try (ChildPipeline child = startChild()) {
            index.await(() -> index.markers(2) >= 1, child, Duration.ofSeconds(180));
            child.kill();
        }
        index.drain();
        Set<Integer> logged = index.markerPartitions(2);
        log("killed as generation 2's publication reached the index log (marker on partitions " + logged + ")");
        CrashedStoreCheck.Result reopened = CrashedStoreCheck.check(run.resolve("index"), work.resolve("replay-2"),
                kafka.bootstrapServers(), NOTES, 2);
        log("reopened store: " + reopened);
        assertThat(reopened.differences()).as("reopened store against the index log up to its checkpoint").isEmpty();
        assertThat(reopened.activeGeneration()).as("generation 2 visible only with its marker on all 3 partitions (%s)",
                reopened.markerPartitions()).isEqualTo(reopened.markerPartitions().size() == 3 ? 2 : 1);
        // a marker the log holds but the store has not applied (the embedding tasks write their partitions' markers in
        // transactions of their own, so the kill may have left some partitions without one, to be written after the restart)
        OptionalInt unapplied = IntStream.range(0, 3).filter(p -> logged.contains(p) && !reopened.markerPartitions().contains(p)).findFirst();
        if (reopened.markerPartitions().size() <= 1 && unapplied.isPresent()) {
            // the kill beat the store to (most of) the markers: leave it as a materializer that had read one more
            // partition's marker, committed, and died; the restart must finish the publication from that checkpoint
            int partition = unapplied.getAsInt();
            Map<String, String> committed = CrashedStoreCheck.commitOnePartitionPastItsMarker(run.resolve("index"),
                    kafka.bootstrapServers(), NOTES, 2, partition);
            CrashedStoreCheck.Result partial = CrashedStoreCheck.check(run.resolve("index"), work.resolve("replay-3"),
                    kafka.bootstrapServers(), NOTES, 2);
            log("store left with generation 2's marker read on partitions " + partial.markerPartitions() + ": " + partial);
            assertThat(committed).as("checkpoint").containsKey("marker." + SOURCE + ":" + NotesTable.TABLE + ":2");
            assertThat(partial.differences()).isEmpty();
            assertThat(partial.markerPartitions()).hasSize(reopened.markerPartitions().size() + 1);
            assertThat(partial.activeGeneration()).as("generation 2 with its marker on %s of 3 partitions", partial.markerPartitions())
                    .isEqualTo(1);
        }

        reindexWriter.close();
        GONE.addAll(reindexWriter.goneIds());
        log(reindexWriter.changes() + " source changes during the re-index and the kills");
        List<Citation> cited = FaultInvariants.assertHold(runtime(), SOURCE, FaultMatrixIT::source, GONE, 2, REPLIES, CONVERGENCE);
        log("converged after the restart; answer cites " + cited.size() + " chunks of generation 2");
    }

    @Test
    @Order(3)
    void brokerRestartedInPlaceWhileChangesAndQuestionsKeepComingLosesNothing() throws Exception {
        PipelineRuntime pipeline = runtime();
        ChangeWriter writer = new ChangeWriter(FaultMatrixIT::source, 3, 30_000, 100).withoutSchemaChange().start();
        List<ReplyType> answered = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> askFailure = new AtomicReference<>();
        Thread asker = new Thread(() -> {
            try (QueryClient client = new QueryClient(pipeline.bootstrapServers(), REPLIES)) {
                while (!Thread.currentThread().isInterrupted() && answered.size() < 6) {
                    List<ReplyEvent> events = client.ask(FaultInvariants.request(FaultInvariants.QUESTION), Duration.ofSeconds(90), e -> { });
                    answered.add(events.get(events.size() - 1).getType());
                }
            } catch (RuntimeException e) {
                askFailure.set(e);
            }
        }, "fault-asker");
        try {
            awaitChanges(writer, 20);
            asker.start();
            while (answered.isEmpty() && askFailure.get() == null) {
                Thread.sleep(20);
            }
            int answeredBefore = answered.size();
            int lagging = lagAtTheFault(pipeline);
            long restart = System.nanoTime();
            kafka.restart();
            log(String.format("broker restarted in place in %.1f s (%d questions answered and %d rows not yet indexed before it)",
                    (System.nanoTime() - restart) / 1e9, answeredBefore, lagging));
            awaitChanges(writer, writer.changes() + 20);
            asker.join(180_000);
        } finally {
            writer.close();
            asker.interrupt();
        }
        GONE.addAll(writer.goneIds());
        assertThat(askFailure.get()).as("a question asked across the restart failed").isNull();
        assertThat(answered).as("final replies to the questions asked across the restart").hasSize(6).containsOnly(ReplyType.ANSWER);
        List<Citation> cited = FaultInvariants.assertHold(pipeline, SOURCE, FaultMatrixIT::source, GONE, 2, REPLIES, CONVERGENCE);
        log("converged after the broker restart (" + writer.changes() + " changes); answer cites " + cited.size() + " chunks");
    }

    @Test
    @Order(4)
    void sourceDatabaseRestartedWhileDebeziumStreamsLosesNoChange() throws Exception {
        PipelineRuntime pipeline = runtime();
        ChangeWriter before = new ChangeWriter(FaultMatrixIT::source, 4, 40_000, 50).withoutSchemaChange().start();
        try {
            awaitChanges(before, 30);
        } finally {
            before.close();
        }
        // stop at once: the last changes before the stop may not have been streamed yet
        int lagging = lagAtTheFault(pipeline);
        long restart = System.nanoTime();
        pg = pg.restart();
        log(String.format("source database restarted in place in %.1f s (%d rows not yet indexed at the stop)",
                (System.nanoTime() - restart) / 1e9, lagging));
        ChangeWriter after = new ChangeWriter(FaultMatrixIT::source, 5, 50_000, 50).withoutSchemaChange().start();
        try {
            awaitChanges(after, 30);
        } finally {
            after.close();
        }
        GONE.addAll(before.goneIds());
        GONE.addAll(after.goneIds());
        List<Citation> cited = FaultInvariants.assertHold(pipeline, SOURCE, FaultMatrixIT::source, GONE, 2, REPLIES, CONVERGENCE);
        log("converged after the database restart (" + before.changes() + " changes before, " + after.changes()
                + " after); answer cites " + cited.size() + " chunks");
    }

    private static ChildPipeline startChild() throws Exception {
        return ChildPipeline.start(configFile, run, work.resolve("child.log"));
    }

    /** The pipeline in this JVM, started once after the kills and shared by the remaining cases. */
    private static PipelineRuntime runtime() throws Exception {
        if (runtime == null) {
            ChartstreamConfig config = ChartstreamConfig.load(configFile, Map.of());
            runtime = PipelineRuntime.start(config, run, c -> Map.of(), line -> System.out.println("[FaultMatrixIT runtime] " + line));
            log("pipeline started in this JVM");
        }
        return runtime;
    }

    /** Rows whose current content the index does not serve yet: changes in flight when the fault hits. */
    private static int lagAtTheFault(PipelineRuntime pipeline) throws SQLException {
        try (Connection c = source()) {
            return IndexConvergence.differences(pipeline, SOURCE, c).size();
        }
    }

    private static Connection source() throws SQLException {
        return pg.connection();
    }

    private static void awaitChanges(ChangeWriter writer, long changes) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (writer.changes() < changes) {
            assertThat(System.nanoTime()).as("the writer made %d changes within 60 s", changes).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static void log(String what) {
        System.out.printf("[FaultMatrixIT] %6.1f s  %s%n", (System.nanoTime() - t0) / 1e9, what);
    }
}
