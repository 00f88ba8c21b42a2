package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.chartstream.app.pipeline.AbruptStopConvergence.SourceDatabase;
import org.chartstream.connectors.SourceKind;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.PipelineTopics;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.Test;

/**
 * Two ingest processes ({@code --role ingest}, JVMs of their own with their own state directories) on one broker
 * share the ingest topology's tasks: A captures (Debezium) and B does not ({@code ingest.capture=false}); the
 * planner task and the three embedding tasks (3-partition repartition topic and index log) are spread over both by
 * the consumer group. Once both have embedded batches of the snapshot, B is killed with SIGKILL; its tasks move to A,
 * which restores their state (pending embedding batches included) from the changelogs. The snapshot is published as
 * one generation (markers of generation 1 only, one per partition); B is started again and rejoins while a writer
 * inserts, updates, deletes and re-keys rows; then {@link FaultInvariants} must hold on a query process that
 * materialises the index log: every source row searchable once with its content hash, nothing deleted searchable,
 * generation 1 the only one a reader sees.
 */
class IngestScaleOutIT {
    private static final int SNAPSHOT_ROWS = 1500;
    private static final String SOURCE = "ehr";
    private static final String REPLIES = "chartstream.replies.ingest-scale-out";

    @Test
    void twoIngestInstancesShareTheEmbeddingAndAKillOfOneDuringTheSnapshotStillConvergesToOneGeneration() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        long t0 = System.nanoTime();
        Path work = Path.of("target", "it", "IngestScaleOutIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        Path log = work.resolve("child.log");
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"));
             SourceDatabase db = new PostgresAbruptStopIT().startDatabase(work)) {
            try (Connection c = db.open()) {
                NotesTable.create(c, SourceKind.POSTGRES);
                NotesTable.insert(c, 1, SNAPSHOT_ROWS);
            }
            PipelineTopics.ensure(kafka.bootstrapServers(), List.of(new PipelineTopics.Spec(Topics.INDEX, 3, false),
                    new PipelineTopics.Spec(org.chartstream.schemas.Topics.INGEST_PROGRESS, 1, true)), List.of());
            Path configFile = PipelineConfigFile.write(work, kafka.bootstrapServers(), SOURCE, db.configuration());
            List<String> capturing = List.of("ingest", "embedding.threads=1");
            List<String> embeddingOnly = List.of("ingest", "embedding.threads=1", "ingest.capture=false");
            log(t0, "broker, database with " + SNAPSHOT_ROWS + " rows");

            try (IndexLogWatcher index = new IndexLogWatcher(kafka.bootstrapServers());
                 IngestStatusReader progress = new IngestStatusReader(kafka.bootstrapServers());
                 ChildPipeline a = ChildPipeline.start(configFile, work.resolve("ingest-a"), log, capturing)) {
                ChildPipeline b = ChildPipeline.start(configFile, work.resolve("ingest-b"), log, embeddingOnly);
                index.await(() -> index.upserts() >= SNAPSHOT_ROWS / 5 && embeddingInstances(progress).size() == 2, a,
                        Duration.ofSeconds(240));
                assertThat(b.isAlive()).as("the second ingest process is running (see child.log)").isTrue();
                Map<Integer, EmbeddingProgress> beforeKill = progress.latestEmbedProgress(Duration.ofSeconds(10));
                long markersAtKill = index.markers();
                b.kill();
                assertThat(markersAtKill).as("killed before the snapshot was published").isZero();
                log(t0, "killed ingest-b mid-snapshot after " + index.upserts() + " row events; embedding progress " + beforeKill.values());

                index.await(() -> index.markers() >= 3, a, Duration.ofSeconds(240));
                log(t0, "snapshot published by the survivor");
                index.poll();
                assertThat(index.markers(1)).as("generation 1's marker, once on each of the 3 partitions").isEqualTo(3);
                assertThat(index.markers()).as("no other generation published").isEqualTo(3);
                assertThat(progress.latestEmbedProgress(Duration.ofSeconds(10)).values()).extracting(EmbeddingProgress::getInstance)
                        .as("the survivor took every embedding task over").allMatch(i -> i.endsWith("/ingest-a"));

                ChildPipeline again = ChildPipeline.start(configFile, work.resolve("ingest-b"), log, embeddingOnly);
                ChangeWriter writer = new ChangeWriter(db::open, 42, SNAPSHOT_ROWS + 1, 15).withoutSchemaChange().start();
                try {
                    long before = index.upsertsAfterFirstMarker();
                    index.await(() -> index.upsertsAfterFirstMarker() >= before + 60, a, Duration.ofSeconds(120));
                } finally {
                    writer.close();
                }
                assertThat(writer.goneIds()).as("the writer deleted or re-keyed rows").isNotEmpty();
                log(t0, writer.changes() + " source changes with ingest-b back");

                ChartstreamConfig config = ChartstreamConfig.load(configFile, Map.of());
                try (PipelineRuntime query = PipelineRuntime.start(config, work.resolve("query"), c -> Map.of(),
                        line -> System.out.println("[query] " + line), PipelineRuntime.Role.QUERY)) {
                    query.createTopics(Map.of(REPLIES, 1));
                    FaultInvariants.assertHold(query, SOURCE, db::open, writer.goneIds(), 1, REPLIES, Duration.ofSeconds(180));
                }
                assertThat(again.isAlive()).as("the restarted ingest-b still runs").isTrue();
                again.close();
                log(t0, "converged: every row once with its content, one generation");
            }
        }
    }

    /** The instances that embedded the latest batch of some partition. */
    private static Set<String> embeddingInstances(IngestStatusReader progress) {
        return progress.latestEmbedProgress(Duration.ofSeconds(5)).values().stream().map(EmbeddingProgress::getInstance)
                .collect(Collectors.toSet());
    }

    private static void log(long t0, String what) {
        System.out.printf("[IngestScaleOutIT] %6.1f s  %s%n", (System.nanoTime() - t0) / 1e9, what);
    }
}
