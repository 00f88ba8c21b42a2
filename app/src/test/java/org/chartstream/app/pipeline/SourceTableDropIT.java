package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.chartstream.connectors.SourceKind;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.DeadLetter;
import org.junit.jupiter.api.Test;

/**
 * A table dropped at the source on the real pipeline (embedded PostgreSQL, whose logical decoding emits nothing for a
 * DROP; Debezium; Kafka Streams): within a bound its rows are no longer found by a search filtered to it, {@code status}
 * shows it dropped with a notice, and a dead letter names the table without any of its values. Created again and
 * filled, its new rows are searchable and the notice is gone.
 */
class SourceTableDropIT {
    private static final int ROWS = 6;
    private static final String SOURCE = "ehr";
    private static final String TABLE_KEY = SOURCE + ":" + NotesTable.TABLE;
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aDroppedTableLeavesTheIndexWithANoticeAndIsIndexedAfreshWhenCreatedAgain() throws Exception {
        try (NotesPipeline pipeline = NotesPipeline.start("SourceTableDropIT", ROWS, Map.of("source.catalog-check-ms", "1000"))) {
            PipelineRuntime runtime = pipeline.runtime();
            List<String> lines = pipeline.lines();
            runtime.awaitSearchable(Duration.ofMinutes(3));
            StatusJson status = pipeline.status();
            TableRef notes = new TableRef(SOURCE, NotesTable.TABLE);
            assertThat(found(runtime, 1)).isTrue();

            try (Connection c = runtime.connection(SOURCE); Statement s = c.createStatement()) {
                s.execute("drop table " + NotesTable.TABLE);
            }
            ServingProbe.await("the dropped table's rows leave the index", BOUND,
                    () -> runtime.store().countRows(notes) == 0 && !found(runtime, 1));
            JsonNode dropped = status.await(s -> StatusJson.table(s, TABLE_KEY).path("dropped").asBoolean(), BOUND);
            assertThat(StatusJson.table(dropped, TABLE_KEY).path("dropped").asBoolean()).as("status: %s", dropped).isTrue();
            assertThat(dropped.path("notices").toString()).contains(TABLE_KEY + ": dropped at the source");
            DeadLetter letter = new ServingProbe(runtime, "chartstream.replies.table-drop")
                    .deadLetters(d -> d.getStage().equals("ingest.source.table-dropped"), 1).get(0);
            assertThat(letter.getReason()).contains("table " + NotesTable.TABLE, "source " + SOURCE, ROWS + " rows left the index")
                    .doesNotContain(NotesTable.title(1), "Patient seen for");
            assertThat(letter.getKey()).isNull();
            assertThat(letter.getValue()).isNull();

            try (Connection c = runtime.connection(SOURCE)) {
                NotesTable.create(c, SourceKind.POSTGRES);
            }
            ServingProbe.await("the table created again is noticed", BOUND,
                    () -> lines.stream().anyMatch(l -> l.contains("table " + TABLE_KEY + " exists again")));
            try (Connection c = runtime.connection(SOURCE)) {
                NotesTable.insert(c, 100, 3);
            }
            ServingProbe.await("the new rows of the table created again are searchable", BOUND,
                    () -> runtime.store().countRows(notes) == 3 && found(runtime, 101));
            assertThat(found(runtime, 1)).as("a row of the dropped table").isFalse();
            JsonNode back = status.await(s -> !StatusJson.table(s, TABLE_KEY).path("dropped").asBoolean(), BOUND);
            assertThat(StatusJson.table(back, TABLE_KEY).path("dropped").asBoolean()).isFalse();
            assertThat(back.path("notices").toString()).doesNotContain("dropped at the source");
        }
    }

    /** Whether a search filtered to the notes table finds the row with id {@code id} by its unique title word. */
    private static boolean found(PipelineRuntime runtime, int id) {
        return runtime.store().lexicalSearch("n" + id + "x", 5, RetrievalFilter.forTables(NotesTable.TABLE)).stream()
                .anyMatch(hit -> hit.chunk().row().rowKey().equals(Integer.toString(id)));
    }

}
