package org.chartstream.app.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.chartstream.connectors.SourceKind;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The real pipeline over the embedded PostgreSQL with {@link NotesTable} holding rows 1 to n, started as {@code run}
 * starts it; its progress lines are kept (and echoed on stderr: stdout is what an in-process command prints).
 */
final class NotesPipeline implements AutoCloseable {
    private final Path dir;
    private final PipelineRuntime runtime;
    private final List<String> lines;

    private NotesPipeline(Path dir, PipelineRuntime runtime, List<String> lines) {
        this.dir = dir;
        this.runtime = runtime;
        this.lines = lines;
    }

    /** @param settings configuration beyond the notes table's registration */
    static NotesPipeline start(String name, int rows, Map<String, String> settings) throws IOException {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        Path dir = Files.createDirectories(Path.of("target", "it", name + "-" + System.currentTimeMillis()).toAbsolutePath());
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", NotesTable.TABLE).with("source.fields." + NotesTable.TABLE, NotesTable.FIELDS);
        for (Map.Entry<String, String> e : settings.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        List<String> lines = new CopyOnWriteArrayList<>();
        PipelineRuntime runtime = PipelineRuntime.start(config, dir.resolve("run"), c -> {
            NotesTable.create(c, SourceKind.POSTGRES);
            NotesTable.insert(c, 1, rows);
            return Map.of(NotesTable.TABLE, rows);
        }, line -> {
            lines.add(line);
            System.err.println("[" + name + "] " + line);
        });
        return new NotesPipeline(dir, runtime, lines);
    }

    PipelineRuntime runtime() {
        return runtime;
    }

    /** The progress lines so far. */
    List<String> lines() {
        return lines;
    }

    /** {@code status --json} as an operator runs it against this pipeline. */
    StatusJson status() throws IOException {
        return StatusJson.forNotes(dir, runtime.bootstrapServers());
    }

    @Override
    public void close() {
        runtime.close();
    }
}
