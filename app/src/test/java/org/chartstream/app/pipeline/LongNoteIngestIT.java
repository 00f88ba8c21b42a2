package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A note just under the default field cap ({@code ingest.max-field-bytes}, 1 MiB) on the real embedded pipeline with
 * the default model: about a thousand chunks, which the model on these cores embeds in longer than the ingest's
 * 10 s Streams transaction may stay open. The row is indexed whole, and a change made after it is indexed too: the
 * embedding task spreads the row over as many transactions as it needs instead of timing out the same transaction
 * again and again.
 */
class LongNoteIngestIT {
    private static final String PATIENT_ID = "8d1e4b7a-3c2f-4e60-9a1b-7f5e2d3c4b10";
    private static final int NOTE_BYTES = 1_000_000;
    private static final String LAST_WORDS = "Final line of the discharge summary: follow up with cardiology in two weeks.";

    @TempDir
    static Path dir;
    private static PipelineRuntime runtime;

    @BeforeAll
    static void start() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", "patients,clinical_notes");
        runtime = PipelineRuntime.start(config, dir.resolve("long-note"), c -> {
            ClinicalDatasetLoader.createSchema(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state)"
                        + " values ('" + PATIENT_ID + "', 'MRN-830001', 'Oskar', 'Brandvold', '1949-11-23', 'male', 'Bangor', 'Maine')");
                s.executeUpdate("insert into clinical_notes (note_id, note_no, patient_id, note_date, chief_complaint, note_text) values"
                        + " (1, 'N-1', '" + PATIENT_ID + "', '2024-09-01', 'follow-up', 'Blood pressure well controlled on lisinopril.')");
            }
            return Map.of("patients", 1, "clinical_notes", 1);
        }, line -> System.out.println("[long-note] " + line));
        runtime.awaitSearchable(Duration.ofMinutes(3));
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    /** Distinct sentences (identical chunks would be embedded once and make the row cheap), then {@link #LAST_WORDS}. */
    private static String longNote() {
        List<String> findings = List.of("intermittent palpitations", "ankle oedema", "exertional dyspnoea", "orthopnoea",
                "a productive cough", "dizziness on standing", "reduced appetite", "poor sleep", "chest tightness", "fatigue");
        List<String> plans = List.of("titrate furosemide", "repeat the echocardiogram", "check renal function", "review in clinic",
                "start a beta blocker", "reduce salt intake", "weigh daily", "stop the NSAID", "refer to physiotherapy", "repeat the ECG");
        Random random = new Random(83);
        StringBuilder note = new StringBuilder();
        int day = 1;
        while (note.length() < NOTE_BYTES - LAST_WORDS.length() - 200) {
            note.append("Day ").append(day++).append(": the patient describes ").append(findings.get(random.nextInt(findings.size())))
                    .append(" rated ").append(random.nextInt(10)).append(" of 10; heart rate ").append(55 + random.nextInt(60))
                    .append(", blood pressure ").append(100 + random.nextInt(70)).append('/').append(55 + random.nextInt(40))
                    .append("; plan: ").append(plans.get(random.nextInt(plans.size()))).append(". ");
        }
        return note.append(LAST_WORDS).toString();
    }

    @Test
    void aNoteOfAThousandChunksIsIndexedWholeAndAChangeAfterItIsIndexedToo() throws Exception {
        try (Connection c = runtime.postgres().connection();
             PreparedStatement insert = c.prepareStatement("insert into clinical_notes (note_id, note_no, patient_id, note_date,"
                     + " chief_complaint, note_text) values (?, ?, '" + PATIENT_ID + "', '2024-10-01', ?, ?)")) {
            insert.setInt(1, 2);
            insert.setString(2, "N-2");
            insert.setString(3, "heart failure admission");
            insert.setString(4, longNote());
            insert.executeUpdate();
            insert.setInt(1, 3);
            insert.setString(2, "N-3");
            insert.setString(3, "review");
            insert.setString(4, "Started lisinopril after the admission.");
            insert.executeUpdate();
        }

        RowRef longRow = new RowRef("ehr", "clinical_notes", "2");
        // a thousand chunks take 15-30 s on 2 quiet cores; the wait leaves room for a loaded CI machine
        ServingProbe.await("the note written after the long one is indexed", Duration.ofMinutes(6),
                () -> !runtime.store().rowChunks(new RowRef("ehr", "clinical_notes", "3")).isEmpty());
        List<StoredChunk> chunks = runtime.store().rowChunks(longRow);
        assertThat(chunks.size()).as("chunks of the long note").isGreaterThan(900);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.chunkCount()).isEqualTo(chunks.size()));
        assertThat(chunks.getLast().text()).contains(LAST_WORDS);
        assertThat(runtime.captureProblem()).isNull();
    }
}
