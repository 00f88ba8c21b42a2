package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.ingest.IngestTopologyFixture.change;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.MimicShapedBindings;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MIMIC-shaped source bound in Java ({@link MimicShapedBindings}): diagnoses whose code and version resolve through
 * the {@code d_icd_diagnoses} dictionary, a table reaching its patient through the admission it names. A row is indexed
 * with its code's meaning (a padded code included); a code its dictionary lacks is shown alone and counted in the
 * table's status; a dictionary row read after the rows using it, a changed meaning and a deleted dictionary row chunk
 * those rows again, in the generation they were written to, and a truncated dictionary takes its meanings away; a
 * re-index renders the meanings as they are now; a dictionary's own rows are never indexed and it has no generation.
 * A table naming only the admission reaches its patient when the admission arrives and follows it when it changes
 * patient. With the real ONNX model.
 */
class DictionaryEnrichmentTopologyTest {
    private static final String DIAGNOSES_KEY = "mimic:diagnoses_icd";
    private static final String HYPERTENSION = "Unspecified essential hypertension";
    @RegisterExtension
    static final RealEmbeddingModel MODEL = new RealEmbeddingModel();

    @TempDir
    Path dir;
    private IngestTopologyFixture ingest;
    private TestOutputTopic<String, IndexEvent> index;

    @BeforeEach
    void start() {
        Map<String, TableProjection> tables = new LinkedHashMap<>();
        for (TableBinding table : MimicShapedBindings.source().tables().values()) {
            tables.put(table.table(), TableProjection.of(table));
        }
        SourceRegistration mimic = new SourceRegistration("mimic", "postgres", "mimic", MimicShapedBindings.patientIdentity(),
                tables, MimicShapedBindings.source());
        ingest = new IngestTopologyFixture(dir.resolve("state"),
                new IngestSettings(List.of(mimic), 8, Duration.ofMillis(100), Topics.INDEX, Topics.DEAD_LETTER),
                MODEL.model().chunker()::chunkUnderHeader, PassageEmbedder.of(MODEL.model()));
        index = ingest.index();
    }

    @AfterEach
    void close() {
        ingest.close();
    }

    @Test
    void aDiagnosisIsIndexedWithTheMeaningOfItsPaddedCodeInItsVersionAndTheDictionaryItselfIsNot() {
        dictionaryRow("c", "4019", 9, HYPERTENSION, 10);
        dictionaryRow("c", "4019", 10, "A code of the same letters in another version", 11);
        patient("10014078", 12);
        diagnosis("22595853", 1, "4019   ", 9, 13);
        settle();

        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getTableName).doesNotContain("d_icd_diagnoses");
        ChunkRecord chunk = onlyRow(events, "diagnoses_icd");
        assertThat(chunk.getText()).startsWith("record: diagnoses icd\npatient: 10014078\nadmission: 22595853")
                .endsWith("icd code: 4019\nicd version: 9\ndiagnosis: " + HYPERTENSION);
        assertThat(chunk.getFields()).containsEntry("diagnosis", HYPERTENSION).containsEntry("icd_code", "4019")
                .containsEntry("hadm_id", "22595853");
        assertThat(chunk.getPatientKey()).isEqualTo("10014078");
        Map<String, IngestTableStatus> statuses = ingest.latestStatuses();
        assertThat(statuses.get(DIAGNOSES_KEY).getUnresolvedCodes()).isZero();
        assertThat(statuses.get("mimic:d_icd_diagnoses").getRows()).as("dictionary rows kept").isEqualTo(2);
        assertThat(statuses.get("mimic:d_icd_diagnoses").getChunks()).isZero();
    }

    @Test
    void aCodeReadBeforeItsDictionaryRowIsShownAloneCountedAndChunkedAgainWithItsMeaningWhenTheRowArrives() {
        patient("10014078", 10);
        diagnosis("22595853", 1, "4019", 9, 11);
        settle();
        ChunkRecord early = onlyRow(index.readValuesToList(), "diagnoses_icd");
        assertThat(early.getText()).contains("icd code: 4019").doesNotContain("diagnosis:");
        assertThat(early.getFields()).doesNotContainKey("diagnosis");
        assertThat(ingest.latestStatus(DIAGNOSES_KEY).getUnresolvedCodes()).isEqualTo(1);

        dictionaryRow("c", "4019", 9, HYPERTENSION, 12);
        settle();

        List<IndexEvent> again = index.readValuesToList();
        ChunkRecord late = onlyRow(again, "diagnoses_icd");
        assertThat(late.getText()).endsWith("diagnosis: " + HYPERTENSION);
        assertThat(late.getGeneration()).as("written again to the generation it was in").isEqualTo(early.getGeneration());
        IngestTableStatus status = ingest.latestStatus(DIAGNOSES_KEY);
        assertThat(status.getUnresolvedCodes()).isZero();
        assertThat(status.getRows()).isEqualTo(1);
    }

    @Test
    void aChangedMeaningAndADeletedDictionaryRowChunkTheRowsUsingTheCodeAgain() {
        dictionaryRow("c", "4019", 9, HYPERTENSION, 10);
        patient("10014078", 11);
        diagnosis("22595853", 1, "4019", 9, 12);
        diagnosis("22595853", 2, "4019", 10, 13);
        settle();
        index.readValuesToList();

        dictionaryRow("u", "4019", 9, "Essential hypertension, unspecified", 14);
        settle();
        List<IndexEvent> updated = index.readValuesToList();
        assertThat(rowsOf(updated, "diagnoses_icd")).as("only the row using the changed code").hasSize(1);
        assertThat(onlyRow(updated, "diagnoses_icd").getText()).endsWith("diagnosis: Essential hypertension, unspecified");

        ingest.input("mimic.public.d_icd_diagnoses").pipeInput("{\"icd_code\":\"4019\",\"icd_version\":9}",
                change("d", "false", "null", 15));
        settle();
        ChunkRecord deleted = onlyRow(index.readValuesToList(), "diagnoses_icd");
        assertThat(deleted.getText()).endsWith("icd version: 9").doesNotContain("diagnosis:");
        Map<String, IngestTableStatus> statuses = ingest.latestStatuses();
        assertThat(statuses.get(DIAGNOSES_KEY).getUnresolvedCodes()).as("the other version's code was never resolved, this one no longer is")
                .isEqualTo(2);
        assertThat(statuses.get("mimic:d_icd_diagnoses").getRows()).isZero();
    }

    @Test
    void aReindexRebuildsTheRowsWithTheMeaningsAsTheDictionaryHoldsThemNow() {
        indexOneHypertensionDiagnosis();

        ingest.requestReindex("mimic", "diagnoses_icd");
        ingest.requestReindex("mimic", "d_icd_diagnoses");
        settle();

        List<IndexEvent> rebuilt = index.readValuesToList();
        assertThat(rebuilt).extracting(IndexEvent::getTableName).as("a dictionary has no generation to rebuild")
                .containsOnly("diagnoses_icd");
        assertThat(onlyRow(rebuilt, "diagnoses_icd").getText()).endsWith("diagnosis: " + HYPERTENSION);
        assertThat(onlyRow(rebuilt, "diagnoses_icd").getGeneration()).isEqualTo(2);
    }

    @Test
    void aTruncatedDictionaryTakesItsMeaningsAwayAndPublishesNothingOfItsOwn() {
        indexOneHypertensionDiagnosis();

        ingest.input("mimic.public.d_icd_diagnoses").pipeInput(null, change("t", "false", "null", 13));
        settle();

        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getTableName).containsOnly("diagnoses_icd");
        assertThat(onlyRow(events, "diagnoses_icd").getText()).doesNotContain("diagnosis:");
        Map<String, IngestTableStatus> statuses = ingest.latestStatuses();
        assertThat(statuses.get("mimic:d_icd_diagnoses").getRows()).isZero();
        assertThat(statuses.get(DIAGNOSES_KEY).getUnresolvedCodes()).isEqualTo(1);
    }

    @Test
    void aTableNamingOnlyTheAdmissionReachesItsPatientThroughItWhenItArrivesAndWhenItChangesPatient() {
        patient("10014078", 10);
        patient("10035185", 11);
        service("22595853", "MED", 12);
        settle();
        ChunkRecord orphan = onlyRow(index.readValuesToList(), "services");
        assertThat(orphan.getPatientKey()).as("the admission is not read yet").isNull();
        assertThat(orphan.getText()).doesNotContain("patient:").contains("service: MED");

        admission("c", "22595853", "10014078", 13);
        settle();
        ChunkRecord reached = onlyRow(index.readValuesToList(), "services");
        assertThat(reached.getPatientKey()).isEqualTo("10014078");
        assertThat(reached.getText()).startsWith("record: services\npatient: 10014078");

        admission("u", "22595853", "10035185", 14);
        settle();
        ChunkRecord moved = onlyRow(index.readValuesToList(), "services");
        assertThat(moved.getPatientKey()).isEqualTo("10035185");
        assertThat(moved.getPatientNumber()).isEqualTo("10035185");
    }

    /** A patient's one diagnosis, its code in the dictionary, indexed (its events read). */
    private void indexOneHypertensionDiagnosis() {
        dictionaryRow("c", "4019", 9, HYPERTENSION, 10);
        patient("10014078", 11);
        diagnosis("22595853", 1, "4019", 9, 12);
        settle();
        index.readValuesToList();
    }

    private void settle() {
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);
        ingest.lingerPasses();
        ingest.lingerPasses();
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);
    }

    private void dictionaryRow(String op, String code, int version, String title, long lsn) {
        ingest.input("mimic.public.d_icd_diagnoses").pipeInput("{\"icd_code\":\"" + code + "\",\"icd_version\":" + version + "}",
                change(op, "false", "{\"icd_code\":\"" + code + "\",\"icd_version\":" + version + ",\"long_title\":\"" + title + "\"}", lsn));
    }

    private void patient(String subjectId, long lsn) {
        ingest.input("mimic.public.patients").pipeInput("{\"subject_id\":" + subjectId + "}",
                change("c", "false", "{\"subject_id\":" + subjectId + ",\"gender\":\"F\",\"anchor_age\":52}", lsn));
    }

    private void diagnosis(String hadmId, int seq, String code, int version, long lsn) {
        ingest.input("mimic.public.diagnoses_icd").pipeInput("{\"hadm_id\":" + hadmId + ",\"seq_num\":" + seq + "}",
                change("c", "false", "{\"subject_id\":10014078,\"hadm_id\":" + hadmId + ",\"seq_num\":" + seq + ",\"icd_code\":\""
                        + code + "\",\"icd_version\":" + version + "}", lsn));
    }

    private void admission(String op, String hadmId, String subjectId, long lsn) {
        ingest.input("mimic.public.admissions").pipeInput("{\"hadm_id\":" + hadmId + "}", change(op, "false",
                "{\"hadm_id\":" + hadmId + ",\"subject_id\":" + subjectId + ",\"admission_type\":\"URGENT\"}", lsn));
    }

    private void service(String hadmId, String service, long lsn) {
        ingest.input("mimic.public.services").pipeInput("{\"hadm_id\":" + hadmId + ",\"transfertime\":\"2180-05-06T22:23:00\"}",
                change("c", "false", "{\"hadm_id\":" + hadmId + ",\"transfertime\":\"2180-05-06T22:23:00\",\"curr_service\":\""
                        + service + "\"}", lsn));
    }

    private static List<ChunkRecord> rowsOf(List<IndexEvent> events, String table) {
        return events.stream().filter(e -> e.getKind() == IndexEventKind.UPSERT_ROW && e.getTableName().equals(table))
                .map(e -> e.getChunks().get(0)).toList();
    }

    /** The first chunk of the table's one row written in {@code events} (its latest version there). */
    private static ChunkRecord onlyRow(List<IndexEvent> events, String table) {
        List<ChunkRecord> rows = rowsOf(events, table);
        assertThat(rows.stream().map(ChunkRecord::getRowKey).distinct()).as("rows of %s written", table).hasSize(1);
        return rows.get(rows.size() - 1);
    }
}
