package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.store.TableRef;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.IngestTableStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Generations on the real pipeline (embedded broker with a 3-partition index log, embedded PostgreSQL, Debezium,
 * the ingest topology with the ONNX model, Lucene): readers never see two generations at once, neither during the
 * initial snapshot of thousands of rows nor during a re-index that runs while a writer keeps changing rows, and
 * the re-index loses no change across its cutover.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GenerationsIT {
    static final int ROWS = 2000;
    static final String SOURCE = "ehr";
    static final TableRef NOTES = new TableRef(SOURCE, NotesTable.TABLE);
    private static PipelineRuntime runtime;
    private static long t0;

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        t0 = System.nanoTime();
        Path dir = Path.of("target", "it", "GenerationsIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(dir);
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", NotesTable.TABLE).with("source.fields." + NotesTable.TABLE, NotesTable.FIELDS).with("index.partitions", "3").with("ingest.linger-ms", "200");
        runtime = PipelineRuntime.start(config, dir.resolve("run"), c -> {
            NotesTable.create(c, SourceKind.POSTGRES);
            NotesTable.insert(c, 1, ROWS);
            return Map.of(NotesTable.TABLE, ROWS);
        }, line -> System.out.println("[GenerationsIT] " + line));
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    @Order(1)
    void aReaderPollingDuringASnapshotOfThousandsOfRowsNeverSeesItHalfPublished() throws Exception {
        try (GenerationMixReader reader = new GenerationMixReader(runtime.store(), NOTES,
                runtime.model().embedQuery("dry cough"), rows -> rows == 0 || rows == ROWS).start()) {
            awaitActiveGeneration(1, Duration.ofSeconds(240));
            long atPublication = reader.polls();
            while (reader.polls() < atPublication + 20) {
                Thread.sleep(20);
            }
            reader.close();
            log("snapshot published; reader polled " + reader.polls() + " times, saw row counts " + reader.rowCountsSeen());
            assertThat(reader.violations()).isEmpty();
            assertThat(reader.rowCountsSeen()).as("the reader watched the snapshot being built").containsExactlyInAnyOrder(0L, (long) ROWS);
            assertThat(reader.generationsSeen()).containsExactly(1L);
        }
        try (var source = runtime.connection(SOURCE)) {
            assertThat(IndexConvergence.differences(runtime, SOURCE, source)).isEmpty();
        }
    }

    @Test
    @Order(2)
    void aReindexWhileAWriterKeepsChangingRowsLosesNoChangeAcrossTheCutover() throws Exception {
        long requested;
        long cutover;
        ChangeWriter writer = new ChangeWriter(() -> runtime.connection(SOURCE), 7, ROWS + 1, 100).start();
        try (GenerationMixReader reader = new GenerationMixReader(runtime.store(), NOTES,
                runtime.model().embedQuery("knee pain"), rows -> rows > 0).start()) {
            Thread.sleep(1000);
            requested = System.currentTimeMillis();
            IngestControlClient.requestReindex(runtime.bootstrapServers(), NOTES);
            awaitActiveGeneration(2, Duration.ofSeconds(240));
            cutover = System.currentTimeMillis();
            log("re-index published after " + (cutover - requested) + " ms");
            while (writer.changesAfter(cutover) < 30) {
                Thread.sleep(20);
            }
            writer.close();
            reader.close();
            log("writer made " + writer.changes() + " changes; reader polled " + reader.polls() + " times");
            assertThat(reader.violations()).isEmpty();
            assertThat(reader.generationsSeen()).containsExactlyInAnyOrder(1L, 2L);
        } finally {
            writer.close();
        }
        assertThat(writer.changesAfter(requested) - writer.changesAfter(cutover)).as("changes during the rebuild").isPositive();
        IndexConvergence.await(runtime, SOURCE, () -> runtime.connection(SOURCE), Duration.ofSeconds(120));
        assertThat(IndexConvergence.stillSearchable(runtime, writer.goneIds())).isEmpty();
        assertThat(runtime.store().activeGenerations()).containsEntry(NOTES, 2L);
        log("converged after the re-index");

        try (IngestStatusReader status = new IngestStatusReader(runtime.bootstrapServers());
             var source = runtime.connection(SOURCE)) {
            IngestTableStatus notes = status.latestTableStatus(Duration.ofSeconds(10)).get(NOTES.id());
            assertThat(notes.getActiveGeneration()).isEqualTo(2);
            assertThat(notes.getStagedGeneration()).isZero();
            assertThat(notes.getRows()).isEqualTo(NotesTable.rows(source).size());
            assertThat(notes.getChunks()).isEqualTo(runtime.store().chunkCount());
            assertThat(notes.getSourcePosition()).startsWith("lsn:");
        }
    }

    private static void awaitActiveGeneration(long generation, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (runtime.store().activeGenerations().getOrDefault(NOTES, 0L) < generation) {
            runtime.checkHealthy();
            assertThat(System.nanoTime()).as("generation %d published within %s s", generation, timeout.toSeconds()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static void log(String what) {
        System.out.printf("[GenerationsIT] %6.1f s  %s%n", (System.nanoTime() - t0) / 1e9, what);
    }
}
