package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.chartstream.ingest.IngestTopologyFixture.change;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.TestInputTopic;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.schemas.EmbeddedChunks;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.ingest.normalize.TableDropped;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.IngestControl;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What happens to a source table beyond its row changes. A snapshot's progress moves while its generation is still staged: the table's status counts the rows written to
 * the staged generation and the embedding tasks' progress the chunks of it they embedded, each strictly between
 * none and all of the table before the generation is published; the publish itself stays one marker after the last row.
 * A registered table found gone from the source ({@link TableDropped} on the control topic): its rows leave the index
 * in one step (an empty generation published), its status says dropped, a dead letter names the table and none of its
 * values; the same notice again changes nothing; a change of the table created again is indexed and clears the notice.
 */
class SourceTableTopologyTest {
    private static final String TABLE_KEY = "ehr:clinical_notes";
    private static final int ROWS = 12;
    private static OnnxEmbedder model;

    @TempDir
    Path dir;

    @BeforeAll
    static void loadModel() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @AfterAll
    static void closeModel() {
        model.close();
    }

    @Test
    void rowsStagedAndChunksEmbeddedAreCountedBeforeTheSnapshotIsPublished() {
        try (IngestTopologyFixture ingest = notesOnly(4)) {
            TestInputTopic<String, String> notes = ingest.input("ehr.public.clinical_notes");
            for (int id = 1; id <= ROWS / 2; id++) {
                snapshotRow(notes, id, id == 1 ? "first_in_data_collection" : "true");
            }
            ingest.lingerPasses();
            ingest.lingerPasses();

            IngestTableStatus midway = ingest.latestStatus(TABLE_KEY);
            assertThat(midway.getActiveGeneration()).as("nothing published yet").isZero();
            assertThat(midway.getStagedGeneration()).isEqualTo(1);
            assertThat(midway.getStagedRows()).isEqualTo(ROWS / 2);
            long embeddedMidway = embeddedChunks(ingest.latestProgress(), 1);
            assertThat(embeddedMidway).as("chunks of the staged generation embedded so far").isBetween(1L, (long) ROWS - 1);

            for (int id = ROWS / 2 + 1; id <= ROWS; id++) {
                snapshotRow(notes, id, id == ROWS ? "last" : "true");
            }
            ingest.lingerPasses();
            ingest.lingerPasses();

            IngestTableStatus done = ingest.latestStatus(TABLE_KEY);
            assertThat(done.getActiveGeneration()).isEqualTo(1);
            assertThat(done.getStagedGeneration()).isZero();
            assertThat(done.getStagedRows()).isZero();
            assertThat(embeddedChunks(ingest.latestProgress(), 1)).isEqualTo(done.getChunks()).isGreaterThan(embeddedMidway);
        }
    }

    /** The topology over one source with a notes table and no patient table, embedding in batches of {@code batchChunks}. */
    private IngestTopologyFixture notesOnly(int batchChunks) {
        SourceRegistration ehr = new SourceRegistration("ehr", "postgres", "ehr", null,
                Map.of("clinical_notes", new TableProjection("clinical_notes", List.of(), Set.of(), "patient_id")));
        return new IngestTopologyFixture(dir.resolve("state"), new IngestSettings(List.of(ehr), batchChunks, Duration.ofMillis(100),
                Topics.INDEX, Topics.DEAD_LETTER), model.chunker()::chunkUnderHeader, PassageEmbedder.of(model));
    }

    private static void snapshotRow(TestInputTopic<String, String> notes, int id, String snapshot) {
        notes.pipeInput("{\"note_id\":" + id + "}", change("r", snapshot, "{\"note_id\":" + id + ",\"patient_id\":\"p" + id
                + "\",\"note_text\":\"Seen for follow-up number " + id + "; blood pressure stable.\"}", 10));
    }

    private static long embeddedChunks(Map<String, EmbeddingProgress> progress, long generation) {
        return EmbeddedChunks.of(progress.values(), TABLE_KEY, generation);
    }

    @Test
    void aDroppedTablesRowsLeaveAtOnceWithANoticeAndADeadLetterAndATableCreatedAgainIsIndexed() {
        try (IngestTopologyFixture ingest = notesOnly(8)) {
            TestInputTopic<String, String> notes = ingest.input("ehr.public.clinical_notes");
            notes.pipeInput("{\"note_id\":1}", change("r", "first_in_data_collection",
                    "{\"note_id\":1,\"patient_id\":\"p1\",\"note_text\":\"Congestive heart failure is stable.\"}", 10));
            notes.pipeInput("{\"note_id\":2}", change("r", "last",
                    "{\"note_id\":2,\"patient_id\":\"p2\",\"note_text\":\"Knee pain after a fall.\"}", 10));
            ingest.lingerPasses();
            ingest.index().readValuesToList();

            dropped(ingest);
            dropped(ingest);
            List<IndexEvent> retired = ingest.index().readValuesToList();
            assertThat(retired).extracting(IndexEvent::getKind, IndexEvent::getGeneration)
                    .containsExactly(tuple(IndexEventKind.MARKER, 2L));
            assertThat(retired.get(0).getMarker().getRows()).isZero();
            assertThat(ingest.latestStatus("ehr:clinical_notes")).satisfies(s -> {
                assertThat(s.getDropped()).isTrue();
                assertThat(s.getRows()).isZero();
                assertThat(s.getActiveGeneration()).isEqualTo(2);
            });
            List<DeadLetter> letters = ingest.deadLetters().readValuesToList();
            assertThat(letters).hasSize(1).allSatisfy(d -> {
                assertThat(d.getStage()).isEqualTo("ingest.source.table-dropped");
                assertThat(d.getReason()).contains("table clinical_notes of source ehr", "2 rows left the index")
                        .doesNotContain("heart failure", "Knee");
                assertThat(d.getValue()).isNull();
            });

            notes.pipeInput("{\"note_id\":7}", change("c", "false",
                    "{\"note_id\":7,\"patient_id\":\"p3\",\"note_text\":\"New table, first note.\"}", 20));
            ingest.lingerPasses();
            assertThat(ingest.index().readValuesToList()).extracting(IndexEvent::getRowKey, IndexEvent::getGeneration)
                    .containsExactly(tuple("7", 2L));
            assertThat(ingest.latestStatus("ehr:clinical_notes")).satisfies(s -> {
                assertThat(s.getDropped()).isFalse();
                assertThat(s.getRows()).isEqualTo(1);
            });
        }
    }

    private static void dropped(IngestTopologyFixture ingest) {
        IngestControl notice = new TableDropped("ehr", "clinical_notes", 1).toControl();
        ingest.control().pipeInput("ehr:clinical_notes", AvroSerde.of(IngestControl.class).serialize(notice));
        ingest.lingerPasses();
    }
}
