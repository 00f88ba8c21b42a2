package org.chartstream.app.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The configuration file of a pipeline that runs against a broker and a source database the test owns (so that they
 * outlive pipeline processes): one source with {@link NotesTable}, a 3-partition index log.
 */
final class PipelineConfigFile {
    private PipelineConfigFile() {
    }

    /** Writes {@code <work>/pipeline.properties}; {@code source} holds the source.* keys that reach the database. */
    static Path write(Path work, String bootstrap, String sourceId, Map<String, String> source) throws IOException {
        StringBuilder p = new StringBuilder();
        p.append("data.dir=").append(work).append('\n');
        p.append("kafka.bootstrap=").append(bootstrap).append('\n');
        p.append("source.id=").append(sourceId).append('\n');
        p.append("source.topic-prefix=").append(sourceId).append('\n');
        p.append("source.tables=").append(NotesTable.TABLE).append('\n');
        p.append("source.fields.").append(NotesTable.TABLE).append('=').append(NotesTable.FIELDS).append('\n');
        p.append("index.partitions=3\n");
        p.append("ingest.linger-ms=200\n");
        source.forEach((k, v) -> p.append(k).append('=').append(v).append('\n'));
        Path file = work.resolve("pipeline.properties");
        Files.writeString(file, p.toString());
        return file;
    }
}
