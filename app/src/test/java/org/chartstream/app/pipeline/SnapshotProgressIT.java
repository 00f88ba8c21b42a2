package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.runtime.PipelineRuntime;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's progress moves on the real pipeline (embedded PostgreSQL, Debezium, Kafka Streams, the default model):
 * a table of a few thousand rows is not shown as {@code 0/N} until it is all done. Before its generation is
 * published, {@code status --json} counts rows staged and chunks embedded strictly between none and all, and the
 * run's progress lines do the same; the table becomes searchable whole, in one step.
 */
class SnapshotProgressIT {
    private static final int ROWS = 3000;
    private static final String TABLE_KEY = "ehr:" + NotesTable.TABLE;
    private static final Pattern LINE = Pattern.compile(NotesTable.TABLE + " (\\d+)/" + ROWS + " \\(staged (\\d+), (\\d+)/(\\d+) chunks embedded\\)");

    @Test
    void rowsStagedAndChunksEmbeddedMoveBeforeTheTableIsPublished() throws Exception {
        try (NotesPipeline pipeline = NotesPipeline.start("SnapshotProgressIT", ROWS, Map.of())) {
            PipelineRuntime runtime = pipeline.runtime();
            List<String> lines = pipeline.lines();
            StatusJson status = pipeline.status();
            CompletableFuture<Void> searchable = CompletableFuture.runAsync(() -> runtime.awaitSearchable(Duration.ofMinutes(10)));
            List<JsonNode> beforePublication = new ArrayList<>();
            while (!searchable.isDone()) {
                JsonNode notes = StatusJson.table(status.read(), TABLE_KEY);
                // nothing searchable yet, the ingest side at work: the planner may already have closed the generation
                // (staged_generation 0) while its chunks are still being embedded, which on a fast machine is all of it
                if (notes.path("rows").asLong() == 0 && notes.path("embedded_chunks").asLong() > 0) {
                    beforePublication.add(notes);
                }
                Thread.sleep(300);
            }
            searchable.join();
            JsonNode done = StatusJson.table(status.read(), TABLE_KEY);
            for (int i = 0; i < 60 && done.path("rows").asLong() != ROWS; i++) {
                Thread.sleep(500); // the store publishes what it serves about once a second
                done = StatusJson.table(status.read(), TABLE_KEY);
            }
            long chunks = done.path("chunks").asLong();
            assertThat(done.path("rows").asLong()).isEqualTo(ROWS);
            assertThat(done.path("staged_rows").asLong()).isZero();

            assertThat(beforePublication).as("statuses read before the table was searchable").isNotEmpty()
                    .anySatisfy(s -> assertThat(s.path("embedded_chunks").asLong()).isStrictlyBetween(0L, chunks));
            List<String> indexing = lines.stream().filter(l -> l.startsWith("indexing (")).toList();
            assertThat(indexing.getLast()).as("the last progress line before the table is searchable still counts the snapshot")
                    .containsPattern(LINE);
            List<long[]> moving = indexing.stream().map(LINE::matcher).filter(Matcher::find)
                    .map(m -> new long[]{Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))}).toList();
            assertThat(moving).as("progress lines of the run that count the snapshot: %s", lines)
                    .anySatisfy(n -> {
                        assertThat(n[0]).as("searchable").isZero();
                        assertThat(n[1]).as("staged").isPositive();
                        assertThat(n[2]).as("embedded").isStrictlyBetween(0L, chunks);
                    });
        }
    }

}
