package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.chartstream.app.InProcessCli;
import org.chartstream.connectors.SourceKind;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code chartstream status --json} against the real embedded pipeline, started as {@code run} starts it: after the
 * snapshot it names the published generation, the table's rows and no index-log lag; after a streamed change the new
 * row count; after {@code reindex} the new generation. The commands run with a data directory of their own, as from
 * another working directory, host or container than the query process: what they report comes from the broker.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusIT {
    private static final int ROWS = 12;
    private static final String SOURCE = "ehr";
    private static final String TABLE_KEY = SOURCE + ":" + NotesTable.TABLE;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PipelineRuntime runtime;
    private static Path cliConfig;

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        Path dir = Path.of("target", "it", "StatusIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(dir);
        String settings = "data.dir=" + dir.resolve("elsewhere") + "\nsource.tables=" + NotesTable.TABLE + "\nsource.fields." + NotesTable.TABLE
                + "=" + NotesTable.FIELDS + "\nops.http.port=0\n";
        cliConfig = Files.writeString(dir.resolve("cli.properties"), settings);
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", NotesTable.TABLE).with("source.fields." + NotesTable.TABLE, NotesTable.FIELDS);
        runtime = PipelineRuntime.start(config, dir.resolve("run"), c -> {
            NotesTable.create(c, SourceKind.POSTGRES);
            NotesTable.insert(c, 1, ROWS);
            return Map.of(NotesTable.TABLE, ROWS);
        }, line -> System.out.println("[StatusIT] " + line));
        runtime.awaitSearchable(Duration.ofMinutes(3));
    }

    @AfterAll
    static void stop() {
        Optional.ofNullable(runtime).ifPresent(PipelineRuntime::close);
    }

    @Test
    @Order(1)
    void afterTheSnapshotStatusNamesThePublishedGenerationItsRowsAndNoIndexLag() throws Exception {
        JsonNode status = awaitStatus(s -> s.path("index_lag").asLong() == 0 && table(s).path("rows").asLong() == ROWS);
        JsonNode notes = table(status);
        assertThat(notes.path("active_generation").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(notes.path("staged_generation").asLong()).isZero();
        assertThat(notes.path("rows").asLong()).isEqualTo(ROWS);
        assertThat(notes.path("chunks").asLong()).isGreaterThanOrEqualTo(ROWS);
        assertThat(status.path("index_lag").asLong()).isZero();
    }

    @Test
    @Order(2)
    void afterAStreamedChangeStatusCountsTheNewRows() throws Exception {
        try (Connection c = runtime.connection(SOURCE)) {
            NotesTable.insert(c, ROWS + 1, 3);
        }
        JsonNode status = awaitStatus(s -> s.path("index_lag").asLong() == 0 && table(s).path("rows").asLong() == ROWS + 3);
        assertThat(table(status).path("rows").asLong()).isEqualTo(ROWS + 3);
        assertThat(table(status).path("last_source_position").asText()).startsWith("lsn:");
    }

    @Test
    @Order(3)
    void afterAReindexStatusNamesTheNewGeneration() throws Exception {
        long before = table(status()).path("active_generation").asLong();
        InProcessCli reindex = InProcessCli.run("--config", cliConfig.toString(), "reindex", "--table", NotesTable.TABLE,
                "--bootstrap", runtime.bootstrapServers(), "--timeout", Long.toString(WAIT.toSeconds()));
        assertThat(reindex.code()).as("reindex exit code; stderr: %s", reindex.err()).isZero();
        JsonNode status = awaitStatus(s -> s.path("index_lag").asLong() == 0 && table(s).path("active_generation").asLong() > before);
        JsonNode notes = table(status);
        assertThat(notes.path("active_generation").asLong()).isEqualTo(before + 1);
        assertThat(notes.path("staged_generation").asLong()).isZero();
        assertThat(notes.path("rows").asLong()).isEqualTo(ROWS + 3);
    }

    private static JsonNode table(JsonNode status) {
        for (JsonNode t : status.path("tables")) {
            if (t.path("table").asText().equals(TABLE_KEY)) {
                return t;
            }
        }
        throw new AssertionError("status names no table " + TABLE_KEY + ": " + status);
    }

    private static JsonNode status() throws Exception {
        InProcessCli run = InProcessCli.run("--config", cliConfig.toString(), "status", "--bootstrap", runtime.bootstrapServers(), "--json");
        assertThat(run.code()).as("status exit code; stderr: %s", run.err()).isZero();
        return JSON.readTree(run.out());
    }

    /** The first status that {@code done} accepts within {@link #WAIT}, else the last one read (for the assertions). */
    private static JsonNode awaitStatus(Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode last = status();
        while (!done.test(last) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            last = status();
        }
        return last;
    }
}
