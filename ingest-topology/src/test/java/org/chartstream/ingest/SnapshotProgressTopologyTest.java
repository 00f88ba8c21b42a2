package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;
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
import org.chartstream.ingest.status.EmbedProgress;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's progress moves while its generation is still staged: the table's status counts the rows written to
 * the staged generation and the embedding tasks' progress the chunks of it they embedded, each strictly between
 * none and all of the table before the generation is published; the publish itself stays one marker after the last row.
 */
class SnapshotProgressTopologyTest {
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
        SourceRegistration ehr = new SourceRegistration("ehr", "postgres", "ehr", null,
                Map.of("clinical_notes", new TableProjection("clinical_notes", List.of(), Set.of(), "patient_id")));
        IngestSettings settings = new IngestSettings(List.of(ehr), 4, Duration.ofMillis(100), Topics.INDEX, Topics.DEAD_LETTER);
        try (IngestTopologyFixture ingest = new IngestTopologyFixture(dir.resolve("state"), settings,
                model.chunker()::chunkUnderHeader, PassageEmbedder.of(model))) {
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

    private static void snapshotRow(TestInputTopic<String, String> notes, int id, String snapshot) {
        notes.pipeInput("{\"note_id\":" + id + "}", change("r", snapshot, "{\"note_id\":" + id + ",\"patient_id\":\"p" + id
                + "\",\"note_text\":\"Seen for follow-up number " + id + "; blood pressure stable.\"}", 10));
    }

    private static long embeddedChunks(Map<String, EmbeddingProgress> progress, long generation) {
        return EmbedProgress.embeddedChunks(progress.values(), TABLE_KEY, generation);
    }
}
