package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.chartstream.app.ops.Operations;
import org.chartstream.connectors.EmbeddedDebeziumRunner;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.DeadLetter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile source input on the real embedded pipeline (KRaft broker, PostgreSQL, Debezium, both topologies, ONNX,
 * Lucene): a 5 MB clinical note, a change too large for Kafka even after the field cap, a TRUNCATE, a row whose
 * allowed fields are all NULL and a column added to a table. After each one the change capture still runs,
 * {@code /ready} stays ready, a newly inserted row is indexed and cited in an answer, and nothing else is lost.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SourceIntegrityIT {
    private static final String PATIENT_ID = "5b2c9e10-7d4f-4a61-9c3e-2f8a1b6d4e70";
    private static final int FIELD_CAP = 64 * 1024;
    private static final int MAX_RECORD = 1024 * 1024;

    @TempDir
    static Path dir;
    private static Operations ops;
    private static PipelineRuntime runtime;
    private static ServingProbe probe;
    private static int medications;

    @BeforeAll
    static void start() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", "patients,medications,clinical_notes,scans")
                .with("ingest.max-field-bytes", Integer.toString(FIELD_CAP))
                .with("kafka.max-record-bytes", Integer.toString(MAX_RECORD))
                .with("ops.http.port", Integer.toString(ServingProbe.freePort()));
        ops = Operations.start(config, line -> System.out.println("[integrity] " + line));
        runtime = PipelineRuntime.start(config, dir.resolve("integrity"), c -> {
            ClinicalDatasetLoader.createSchema(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("create table scans (scan_id bigint primary key, patient_id uuid, findings text, labels text[])");
                s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state)"
                        + " values ('" + PATIENT_ID + "', 'MRN-810001', 'Vera', 'Lindqvist', '1961-03-02', 'female', 'Salem', 'Oregon')");
                s.executeUpdate("insert into clinical_notes (note_id, note_no, patient_id, note_date, chief_complaint, note_text) values"
                        + " (1, 'N-1', '" + PATIENT_ID + "', '2024-09-01', 'follow-up', 'Blood pressure well controlled on lisinopril.'),"
                        + " (2, 'N-2', '" + PATIENT_ID + "', '2024-09-15', 'cough', 'Dry cough for three weeks, no fever.')");
                s.executeUpdate("insert into scans (scan_id, patient_id, findings) values (1, '" + PATIENT_ID + "', 'Chest X-ray: clear lung fields.')");
            }
            return Map.of("patients", 1, "clinical_notes", 2, "scans", 1);
        }, line -> System.out.println("[integrity] " + line));
        ops.attach(runtime);
        runtime.awaitSearchable(Duration.ofMinutes(3));
        probe = new ServingProbe(runtime, "chartstream.replies.source-integrity");
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
        if (ops != null) {
            ops.close();
        }
    }

    private static void execute(String sql) throws Exception {
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static long indexed(String table) {
        return runtime.indexedRowCounts().getOrDefault(table, -1L);
    }

    /** Change capture runs, /ready is ready, and a new medication row is indexed and cited in an answer. */
    private static void stillServing(String after) throws Exception {
        assertThat(runtime.captureProblem()).as("change capture after %s", after).isNull();
        assertThat(ServingProbe.ready(ops.port())).as("/ready after %s", after).isEqualTo(200);
        int id = 820000 + (++medications);
        String drug = List.of("Amlodipine", "Metformin", "Atorvastatin", "Levothyroxine", "Omeprazole", "Sertraline").get(medications - 1);
        execute("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description) values ("
                + id + ", '" + PATIENT_ID + "', '2024-10-01', '1970" + medications + "', '" + drug + " Oral Tablet', 'prescribed after " + after + "')");
        ServingProbe.await("medication " + id + " indexed after " + after, () -> indexed("medications") == medications);
        probe.answersCiting("Which patient takes " + drug.toLowerCase(java.util.Locale.ROOT) + "?", "medications", Integer.toString(id));
        assertThat(ServingProbe.ready(ops.port())).as("/ready after the question (%s)", after).isEqualTo(200);
    }

    @Test
    @Order(1)
    void aFiveMegabyteNoteIsTruncatedToTheCapNamedInADeadLetterAndStillIndexed() throws Exception {
        String text = "Patient reports intermittent palpitations at night. ";
        execute("update clinical_notes set note_text = repeat('" + text + "', 100000) where note_id = 1"); // 5.2 MB

        DeadLetter dead = probe.deadLetters(d -> d.getStage().equals(EmbeddedDebeziumRunner.STAGE_FIELD_CAP), 1).get(0);
        assertThat(dead.getReason()).isEqualTo("table public.clinical_notes row 1: field 'note_text' (after) has " + text.length() * 100000L
                + " bytes, more than ingest.max-field-bytes (" + FIELD_CAP + "); it was truncated to " + FIELD_CAP
                + " bytes and the row is still indexed");
        assertThat(dead.getSourceTopic()).isEqualTo("ehr.public.clinical_notes");
        assertThat(dead.getValue()).as("the dead letter does not copy the value").isNull();
        ServingProbe.await("the truncated note is indexed", () -> runtime.store().rowChunks(new RowRef("ehr", "clinical_notes", "1")).size() > 10);
        String indexedText = runtime.store().rowChunks(new RowRef("ehr", "clinical_notes", "1")).stream()
                .map(StoredChunk::text).collect(Collectors.joining());
        assertThat(indexedText).contains("intermittent palpitations").doesNotContain("Blood pressure well controlled");
        assertThat(indexedText.length()).isLessThan(3 * FIELD_CAP);
        stillServing("a 5 MB note");
    }

    @Test
    @Order(2)
    void aChangeStillTooLargeAfterTheCapIsDeadLetteredAndSkippedAndCaptureMovesOn() throws Exception {
        // an array is one field but no text value: the cap leaves it, and 1.5 MB exceed kafka.max-record-bytes.
        // (scans keeps the default replica identity, so the next update carries no old image with the array)
        execute("update scans set labels = array_fill(repeat('opacity ', 6000), array[32]) where scan_id = 1");
        execute("update scans set labels = null, findings = 'Chest X-ray: small left pleural effusion.' where scan_id = 1");

        DeadLetter dead = probe.deadLetters(d -> d.getStage().equals(EmbeddedDebeziumRunner.STAGE_WRITE), 1).get(0);
        assertThat(dead.getReason()).startsWith("table public.scans row 1: Kafka refused the change as too large (")
                .endsWith("); it was not written and capture went on");
        assertThat(dead.getSourceTopic()).isEqualTo("ehr.public.scans");
        ServingProbe.await("the next change of the row is indexed", () -> runtime.store().rowChunks(new RowRef("ehr", "scans", "1"))
                .stream().anyMatch(c -> c.text().contains("pleural effusion")));
        stillServing("a change too large for Kafka");
    }

    @Test
    @Order(3)
    void aTruncateTakesTheTablesRowsOutOfTheIndexAtOnceAsAnEmptyGeneration() throws Exception {
        long before = runtime.store().activeGenerations().get(new TableRef("ehr", "clinical_notes"));
        execute("truncate clinical_notes");

        ServingProbe.await("the truncated table's rows leave the index", () -> indexed("clinical_notes") == 0);
        assertThat(runtime.store().activeGenerations().get(new TableRef("ehr", "clinical_notes"))).isGreaterThan(before);
        execute("insert into clinical_notes (note_id, note_no, patient_id, note_date, chief_complaint, note_text) values"
                + " (3, 'N-3', '" + PATIENT_ID + "', '2024-10-02', 'rash', 'Itchy rash on both forearms after gardening.')");
        ServingProbe.await("a note inserted after the truncate is indexed", () -> indexed("clinical_notes") == 1);
        probe.answersCiting("Which patient has an itchy rash on the forearms?", "clinical_notes", "3");
        stillServing("a truncate");
    }

    @Test
    @Order(4)
    void aRowWhoseAllowedFieldsAreAllNullIsNotIndexedAndCountedInStatus() throws Exception {
        execute("insert into scans (scan_id, patient_id, findings, labels) values (2, '" + PATIENT_ID + "', null, null)");
        execute("insert into scans (scan_id, patient_id, findings) values (3, '" + PATIENT_ID + "', 'Knee MRI: meniscal tear.')");

        ServingProbe.await("the scan after the empty one is indexed", () -> runtime.store().rowChunks(new RowRef("ehr", "scans", "3")).size() == 1);
        assertThat(runtime.store().rowChunks(new RowRef("ehr", "scans", "2"))).as("the all-NULL scan").isEmpty();
        assertThat(indexed("scans")).isEqualTo(2);
        ServingProbe.await("rows_skipped_empty of scans", () -> ingestStatus("scans") != null && ingestStatus("scans").getRowsSkippedEmpty() == 1);
        stillServing("an all-NULL row");
    }

    @Test
    @Order(5)
    void aColumnAddedToATableIsLeftOutOfTheIndexUntilAllowListedAndNamedWithoutItsValue() throws Exception {
        execute("alter table patients add column ssn text");
        String second = "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d";
        execute("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state, ssn) values"
                + " ('" + second + "', 'MRN-810002', 'Tomas', 'Greer', '1970-06-30', 'male', 'Eugene', 'Oregon', '078-05-1120')");

        DeadLetter dead = probe.deadLetters(d -> d.getStage().equals("ingest.project.new-column"), 1).get(0);
        assertThat(dead.getReason()).isEqualTo("table public.patients of source ehr: column 'ssn' was added after the table was first"
                + " indexed and is not indexed until it is allow-listed (source.fields.patients)");
        assertThat(dead.getReason()).doesNotContain("078-05-1120");
        ServingProbe.await("the new patient is indexed", () -> !runtime.store().rowChunks(new RowRef("ehr", "patients", second)).isEmpty());
        assertThat(runtime.store().rowChunks(new RowRef("ehr", "patients", second))).allSatisfy(c ->
                assertThat(c.text()).contains("Tomas Greer").doesNotContain("078-05-1120").doesNotContain("ssn"));
        assertThat(runtime.store().lexicalSearch("078-05-1120", 5, org.chartstream.core.store.RetrievalFilter.NONE)).isEmpty();
        ServingProbe.await("the status names the held-back column", () -> ingestStatus("patients") != null
                && ingestStatus("patients").getUnreviewedColumns().equals(List.of("ssn")));
        probe.answersCiting("Which patient is Tomas Greer from Eugene?", "patients", second);
        stillServing("a new column");
    }

    @Test
    @Order(6)
    void nothingAcceptedWasLost() throws Exception {
        Map<String, Long> source = runtime.sourceRowCounts();
        Map<String, Long> index = runtime.indexedRowCounts();
        for (String table : List.of("patients", "medications", "clinical_notes")) {
            assertThat(index.get(table)).as("indexed rows of %s", table).isEqualTo(source.get(table));
        }
        assertThat(index.get("scans")).as("scans: all but the all-NULL row").isEqualTo(source.get("scans") - 1);
        assertThat(runtime.captureProblem()).isNull();
    }

    /** The table's ingest status; null until one is published. */
    private static IngestTableStatus ingestStatus(String table) {
        try (IngestStatusReader reader = new IngestStatusReader(runtime.bootstrapServers())) {
            return reader.latestTableStatus(Duration.ofSeconds(10)).get("ehr:" + table);
        }
    }
}
