package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.chartstream.connectors.SourceKind;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.PipelineTopics;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.Test;

/**
 * The pipeline runs in a child JVM against a broker and a database that outlive it. It is killed with SIGKILL
 * mid-snapshot, started again, killed again mid-stream while a writer keeps inserting, updating, deleting and
 * re-keying rows (and adding a column), and finally restarted here: {@link FaultInvariants} must hold with generation
 * 1 still active (the restart resumed from Debezium offsets and Streams state instead of snapshotting again). Then
 * the source database itself is restarted under the streaming pipeline, more changes follow, and the invariants must
 * hold again.
 */
abstract class AbruptStopConvergence {
    static final int SNAPSHOT_ROWS = 1500;
    static final String SOURCE = "ehr";
    static final String REPLIES = "chartstream.replies.abrupt-stop";

    /** A database that a test starts and that outlives the pipeline processes. */
    interface SourceDatabase extends AutoCloseable {
        Connection open() throws SQLException;

        /** The source.* configuration keys that point the pipeline at it. */
        Map<String, String> configuration();

        /** Stops the database cleanly and starts it again on the same data and port. */
        void restart() throws Exception;
    }

    abstract SourceKind kind();

    abstract SourceDatabase startDatabase(Path dir) throws Exception;

    @Test
    void abruptStopsMidSnapshotAndMidStreamThenRestartConvergesToTheSource() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        long t0 = System.nanoTime();
        Path work = Path.of("target", "it", getClass().getSimpleName() + "-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        Path run = work.resolve("run");
        Path childLog = work.resolve("child.log");
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"));
             SourceDatabase db = startDatabase(work)) {
            try (Connection c = db.open()) {
                NotesTable.create(c, kind());
                NotesTable.insert(c, 1, SNAPSHOT_ROWS);
            }
            PipelineTopics.ensure(kafka.bootstrapServers(), List.of(new PipelineTopics.Spec(Topics.INDEX, 3, false),
                    new PipelineTopics.Spec(org.chartstream.schemas.Topics.INGEST_STATUS, 1, true)), List.of());
            Path configFile = PipelineConfigFile.write(work, kafka.bootstrapServers(), SOURCE, db.configuration());
            log(t0, "broker, database with " + SNAPSHOT_ROWS + " rows");

            try (IndexLogWatcher index = new IndexLogWatcher(kafka.bootstrapServers())) {
                ChildPipeline first = ChildPipeline.start(configFile, run, childLog);
                index.await(() -> index.upserts() >= SNAPSHOT_ROWS / 5, first, Duration.ofSeconds(120));
                long markersAtKill = index.markers();
                first.kill();
                assertThat(markersAtKill).as("stopped before the snapshot was published").isZero();
                log(t0, "killed mid-snapshot after " + index.upserts() + " row events in the index log");

                ChildPipeline second = ChildPipeline.start(configFile, run, childLog);
                index.await(() -> index.markers() >= 3, second, Duration.ofSeconds(180));
                log(t0, "snapshot published by the restarted pipeline");
                ChangeWriter writer = new ChangeWriter(db::open, 42, SNAPSHOT_ROWS + 1, 15).start();
                try {
                    long before = index.upsertsAfterFirstMarker();
                    index.await(() -> index.upsertsAfterFirstMarker() >= before + 30, second, Duration.ofSeconds(60));
                    second.kill();
                    long atKill = writer.changes();
                    log(t0, "killed mid-stream after " + atKill + " source changes");
                    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (writer.changes() < atKill + 40 && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                } finally {
                    writer.close();
                }
                assertThat(writer.goneIds()).as("the writer deleted or re-keyed rows").isNotEmpty();
                log(t0, writer.changes() + " source changes in all");

                ChartstreamConfig config = ChartstreamConfig.load(configFile, Map.of());
                try (PipelineRuntime runtime = PipelineRuntime.start(config, run, c -> Map.of(), line -> System.out.println("[restart] " + line))) {
                    // no new snapshot after the restart: generation 1 stays active
                    runtime.createTopics(Map.of(REPLIES, 1));
                    FaultInvariants.assertHold(runtime, SOURCE, db::open, writer.goneIds(), 1, REPLIES, Duration.ofSeconds(180));
                    log(t0, "converged after the restart");

                    // the source database restarts under a streaming pipeline: Debezium reconnects and loses nothing
                    db.restart();
                    log(t0, "source database restarted");
                    ChangeWriter afterRestart = new ChangeWriter(db::open, 43, SNAPSHOT_ROWS + 10_000, 15).withoutSchemaChange().start();
                    try {
                        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                        while (afterRestart.changes() < 40) {
                            assertThat(System.nanoTime()).as("40 changes after the database restart within 60 s").isLessThan(deadline);
                            Thread.sleep(20);
                        }
                    } finally {
                        afterRestart.close();
                    }
                    List<Integer> gone = new java.util.ArrayList<>(writer.goneIds());
                    gone.addAll(afterRestart.goneIds());
                    FaultInvariants.assertHold(runtime, SOURCE, db::open, gone, 1, REPLIES, Duration.ofSeconds(180));
                    log(t0, "converged after the source database restart (" + afterRestart.changes() + " changes after it)");
                    try (Connection c = db.open()) {
                        assertThat(NotesTable.rows(c).values()).as("rows filled the column added by the schema change")
                                .anyMatch(row -> row.get("triage") != null);
                    }
                }
            }
        }
        log(t0, "done");
    }

    private void log(long t0, String what) {
        System.out.printf("[%s] %6.1f s  %s%n", getClass().getSimpleName(), (System.nanoTime() - t0) / 1e9, what);
    }
}
