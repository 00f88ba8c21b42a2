package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.chartstream.app.InProcessCli;

/**
 * {@code chartstream status --json} run in-process against a running pipeline with a configuration of its own (a data
 * directory elsewhere, the notes table registered): what an operator's command reads from the broker.
 */
final class StatusJson {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path cliConfig;
    private final String bootstrap;

    private StatusJson(Path cliConfig, String bootstrap) {
        this.cliConfig = cliConfig;
        this.bootstrap = bootstrap;
    }

    /** A status command whose configuration (written into {@code dir}) registers {@link NotesTable}. */
    static StatusJson forNotes(Path dir, String bootstrap) throws java.io.IOException {
        Path config = Files.writeString(dir.resolve("cli.properties"), "data.dir=" + dir.resolve("elsewhere") + "\nsource.tables="
                + NotesTable.TABLE + "\nsource.fields." + NotesTable.TABLE + "=" + NotesTable.FIELDS + "\nops.http.port=0\n");
        return new StatusJson(config, bootstrap);
    }

    JsonNode read() throws Exception {
        InProcessCli run = InProcessCli.run("--config", cliConfig.toString(), "status", "--bootstrap", bootstrap, "--json");
        assertThat(run.code()).as("status exit code; stderr: %s", run.err()).isZero();
        return JSON.readTree(run.out());
    }

    /** The first status that {@code done} accepts within {@code wait}, else the last one read (for the assertions). */
    JsonNode await(Predicate<JsonNode> done, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        JsonNode last = read();
        while (!done.test(last) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            last = read();
        }
        return last;
    }

    /** The line of {@code source:table} in a status. */
    static JsonNode table(JsonNode status, String tableKey) {
        for (JsonNode t : status.path("tables")) {
            if (t.path("table").asText().equals(tableKey)) {
                return t;
            }
        }
        throw new AssertionError("status names no table " + tableKey + ": " + status);
    }
}
