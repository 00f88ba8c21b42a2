package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.chartstream.ingest.IngestTopologyFixture.change;
import static org.chartstream.ingest.IngestTopologyFixture.materialise;
import static org.chartstream.ingest.IngestTopologyFixture.tableScanCompleted;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.IndexedPatient;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.ValueCount;
import org.chartstream.ingest.chunk.RowChunks;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.PatientIdentityColumns;
import org.chartstream.ingest.project.PatientIdentityStores;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.ingest.publish.IndexRecordSize;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configure, produce Debezium events, verify the index log — with the real ONNX model and a real Lucene store. */
class IngestTopologyTest {
    private static OnnxEmbedder model;

    @TempDir
    Path dir;
    private IngestTopologyFixture ingest;
    private TestInputTopic<String, String> patients;
    private TestInputTopic<String, String> notes;
    private TestOutputTopic<String, IndexEvent> index;
    private TestOutputTopic<String, DeadLetter> deadLetters;

    @BeforeAll
    static void loadModel() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @AfterAll
    static void closeModel() {
        model.close();
    }

    @BeforeEach
    void configure() {
        SourceRegistration ehr = new SourceRegistration("ehr", "postgres", "ehr",
                new PatientIdentityColumns("patients", "patient_id", List.of("first_name", "last_name"), "patient_no"),
                Map.of("patients", TableProjection.of(new TableBinding("patients", TableRole.PATIENT, List.of(), "patient_id", null,
                                null, "patient_no", List.of("first_name", "last_name"), "birth_date", List.of(), null, List.of(),
                                List.of(), Map.of(), Map.of(), List.of(), null, null, EmbedPolicy.ROW)),
                        "clinical_notes", new TableProjection("clinical_notes", List.of(), Set.of("ssn"), "patient_id")));
        start(new IngestSettings(List.of(ehr), 8, Duration.ofMillis(100), Topics.INDEX, Topics.DEAD_LETTER));
    }

    private void start(IngestSettings settings) {
        ingest = new IngestTopologyFixture(dir.resolve("state"), settings, model.chunker()::chunkUnderHeader, PassageEmbedder.of(model));
        patients = ingest.input("ehr.public.patients");
        notes = ingest.input("ehr.public.clinical_notes");
        index = ingest.index();
        deadLetters = ingest.deadLetters();
    }

    /** Starts over with a source whose notes have no patient table to name their patients, under other limits. */
    private void startOverWithNotesOnly(int fieldBytes, int recordBytes) {
        ingest.close();
        SourceRegistration ehr = new SourceRegistration("ehr", "postgres", "ehr", null,
                Map.of("clinical_notes", new TableProjection("clinical_notes", List.of(), Set.of(), "patient_id")));
        start(new IngestSettings(List.of(ehr), 8, Duration.ofMillis(100), Topics.INDEX, Topics.DEAD_LETTER).withLimits(fieldBytes, recordBytes));
    }

    @AfterEach
    void close() {
        ingest.close();
    }

    private void snapshotTwoPatientsAndTheirNotes() {
        patients.pipeInput("{\"patient_id\":\"p1\"}", change("r", "first_in_data_collection",
                "{\"patient_id\":\"p1\",\"patient_no\":\"MRN-1\",\"first_name\":\"Martha\",\"last_name\":\"Collins\","
                        + "\"birth_date\":\"1961-03-02Z\"}", 10));
        patients.pipeInput("{\"patient_id\":\"p2\"}", change("r", "last_in_data_collection",
                "{\"patient_id\":\"p2\",\"patient_no\":\"MRN-2\",\"first_name\":\"Andrew\",\"last_name\":\"Perez\"}", 10));
        notes.pipeInput("{\"note_id\":1}", change("r", "first_in_data_collection",
                "{\"note_id\":1,\"patient_id\":\"p1\",\"chief_complaint\":\"annual exam\",\"ssn\":\"999-00-1111\","
                        + "\"note_text\":\"Congestive heart failure is stable. She keeps forgetting her blood pressure medication.\"}", 10));
        notes.pipeInput("{\"note_id\":2}", change("r", "last",
                "{\"note_id\":2,\"patient_id\":\"p2\",\"chief_complaint\":\"joint pain\","
                        + "\"note_text\":\"Kidney transplant recipient with hypothyroidism, now reporting knee pain.\"}", 10));
        ingest.lingerPasses();
    }

    @Test
    void aLoneChangeIsEmbeddedOnceTheInputIsQuietNotAfterTheLinger() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();

        notes.pipeInput("{\"note_id\":3}", change("c", "false",
                "{\"note_id\":3,\"patient_id\":\"p1\",\"note_text\":\"Started lisinopril.\"}", 11));
        assertThat(index.isEmpty()).isTrue();
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);

        assertThat(index.readValuesToList()).extracting(IndexEvent::getRowKey).containsExactly("3");
    }

    @Test
    void changesArrivingCloserThanTheQuietTimeGoOutTogether() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        Duration step = IngestSettings.DEFAULT_QUIET.dividedBy(2);

        notes.pipeInput("{\"note_id\":3}", change("c", "false",
                "{\"note_id\":3,\"patient_id\":\"p1\",\"note_text\":\"Started lisinopril.\"}", 11));
        ingest.timePasses(step);
        notes.pipeInput("{\"note_id\":4}", change("c", "false",
                "{\"note_id\":4,\"patient_id\":\"p2\",\"note_text\":\"Knee pain improved.\"}", 12));
        ingest.timePasses(step);
        assertThat(index.isEmpty()).as("the batch is still filling").isTrue();
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);

        assertThat(index.readValuesToList()).extracting(IndexEvent::getRowKey).containsExactly("3", "4");
    }

    @Test
    void aSnapshotBecomesEmbeddedRowsFollowedByAPublishMarkerPerTable() {
        snapshotTwoPatientsAndTheirNotes();

        List<IndexEvent> events = index.readValuesToList();

        assertThat(events).extracting(IndexEvent::getKind).containsExactly(
                IndexEventKind.UPSERT_ROW, IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER,
                IndexEventKind.UPSERT_ROW, IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        IndexEvent note = events.get(3);
        assertThat(note.getGeneration()).isEqualTo(1);
        assertThat(note.getChunks()).hasSize(1);
        assertThat(note.getChunks().get(0).getVector()).hasSize(384);
        assertThat(note.getChunks().get(0).getText())
                .startsWith("record: clinical notes\npatient: Martha Collins (MRN-1)")
                .contains("chief complaint: annual exam")
                .doesNotContain("999-00-1111");
        assertThat(note.getChunks().get(0).getPatientKey()).isEqualTo("MRN-1");
        assertThat(note.getChunks().get(0).getChunkId()).isEqualTo("ehr:clinical_notes:1:0:1");
        assertThat(note.getChunks().get(0).getSourcePosition()).isEqualTo("lsn:10");
        assertThat(events.get(5).getMarker().getRows()).isEqualTo(2);
    }

    @Test
    void aNoteReadBeforeItsPatientIsChunkedAgainUnderThePatientWhenThePatientsRowArrives() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();

        notes.pipeInput("{\"note_id\":5}", change("c", "false",
                "{\"note_id\":5,\"patient_id\":\"p3\",\"note_text\":\"Chest pain on exertion.\"}", 11));
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);
        IndexEvent early = index.readValuesToList().getFirst();
        assertThat(early.getChunks().getFirst().getPatientKey()).as("only the patient's id is known yet").isEqualTo("p3");
        assertThat(early.getChunks().getFirst().getPatientName()).isNull();
        assertThat(early.getChunks().getFirst().getPatientNumber()).isNull();

        patients.pipeInput("{\"patient_id\":\"p3\"}", change("c", "false",
                "{\"patient_id\":\"p3\",\"patient_no\":\"MRN-3\",\"first_name\":\"Ida\",\"last_name\":\"Marwick\"}", 12));
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);

        List<IndexEvent> after = index.readValuesToList();
        assertThat(after).extracting(IndexEvent::getTableName, IndexEvent::getRowKey).containsExactly(
                org.assertj.core.api.Assertions.tuple("patients", "p3"), org.assertj.core.api.Assertions.tuple("clinical_notes", "5"));
        IndexEvent note = after.get(1);
        assertThat(note.getGeneration()).isEqualTo(early.getGeneration());
        assertThat(note.getChunks()).allSatisfy(c -> {
            assertThat(c.getPatientKey()).isEqualTo("MRN-3");
            assertThat(c.getText()).startsWith("record: clinical notes\npatient: Ida Marwick (MRN-3)").contains("Chest pain on exertion.");
            assertThat(c.getPatientNumber()).isEqualTo("MRN-3");
            assertThat(c.getPatientName()).isEqualTo("Ida Marwick");
            assertThat(c.getVector()).hasSize(384);
        });

        patients.pipeInput("{\"patient_id\":\"p3\"}", change("u", "false",
                "{\"patient_id\":\"p3\",\"patient_no\":\"MRN-3\",\"first_name\":\"Ida\",\"last_name\":\"Marwick\",\"city\":\"Salem\"}", 13));
        ingest.timePasses(IngestSettings.DEFAULT_QUIET);
        assertThat(index.readValuesToList()).as("the note waited once: a later change of the patient row leaves it")
                .extracting(IndexEvent::getTableName).containsExactly("patients");
    }

    private void patientChanges(String patientId, String patientNo, String firstName, String lastName, String city, long lsn) {
        patients.pipeInput("{\"patient_id\":\"" + patientId + "\"}", change("u", "false", "{\"patient_id\":\"" + patientId
                + "\",\"patient_no\":\"" + patientNo + "\",\"first_name\":\"" + firstName + "\",\"last_name\":\"" + lastName
                + "\",\"city\":\"" + city + "\"}", lsn));
    }

    /** The planner's index of child rows by patient as its changelog restores it: {@code source:patientId NUL rowStoreKey}. */
    private Set<String> childRowsByPatient() {
        Map<String, String> restored = new HashMap<>();
        ingest.changelog("patient-children").forEach(kv -> {
            if (kv.value == null) {
                restored.remove(kv.key);
            } else {
                restored.put(kv.key, kv.value);
            }
        });
        return restored.keySet();
    }

    /** One punctuation chunks a renamed patient's rows again, the next embeds them. */
    private List<IndexEvent> indexedAfterTwoLingers() {
        ingest.lingerPasses();
        ingest.lingerPasses();
        return index.readValuesToList();
    }

    @Test
    void aRenamedPatientsNotesAreChunkedAgainUnderTheNewNameWithTheSameFilterKey() {
        snapshotTwoPatientsAndTheirNotes();
        List<IndexEvent> snapshot = index.readValuesToList();

        patients.pipeInput("{\"patient_id\":\"p1\"}", change("u", "false", "{\"patient_id\":\"p1\",\"patient_no\":\"MRN-1\","
                + "\"first_name\":\"Martha\",\"last_name\":\"Reed\",\"birth_date\":\"1961-03-02Z\"}", 20));
        List<IndexEvent> after = indexedAfterTwoLingers();

        assertThat(after).extracting(IndexEvent::getTableName, IndexEvent::getRowKey)
                .containsExactly(tuple("patients", "p1"), tuple("clinical_notes", "1"));
        IndexEvent note = after.get(1);
        assertThat(note.getGeneration()).isEqualTo(1);
        assertThat(note.getChunks()).isNotEmpty().allSatisfy(c -> {
            assertThat(c.getText()).startsWith("record: clinical notes\npatient: Martha Reed (MRN-1)")
                    .contains("Congestive heart failure").doesNotContain("Collins");
            assertThat(c.getPatientKey()).isEqualTo("MRN-1");
            assertThat(c.getPatientName()).isEqualTo("Martha Reed");
            assertThat(c.getPatientBirthYear()).as("a note holds no birth date").isNull();
            assertThat(c.getVector()).hasSize(384);
        });
        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"))) {
            materialise(store, snapshot);
            materialise(store, after);
            assertThat(store.patientsNamed(Set.of("reed"), 5, RetrievalFilter.forTables("patients")))
                    .containsExactly(new IndexedPatient("MRN-1", new PatientLabel("MRN-1", "Martha Reed", 1961)));
            assertThat(store.patientsNamed(Set.of("collins"), 5, RetrievalFilter.NONE)).isEmpty();
            assertThat(store.lexicalSearch("Martha Reed", 5, RetrievalFilter.forPatient("MRN-1")))
                    .extracting(h -> h.chunk().row().table()).containsExactlyInAnyOrder("patients", "clinical_notes");
            assertThat(store.lexicalSearch("Collins", 5, RetrievalFilter.NONE)).isEmpty();
        }
    }

    @Test
    void aReindexEntersRowsIndexedBeforeThePatientIndexExistedSoThatALaterRenameReachesThem() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        ingest.forgetStore(org.chartstream.ingest.state.PlannerState.CHILDREN_STORE);
        ingest.requestReindex("ehr", "clinical_notes");
        ingest.lingerPasses();
        ingest.lingerPasses();
        assertThat(index.readValuesToList()).filteredOn(e -> e.getKind() == IndexEventKind.MARKER)
                .extracting(IndexEvent::getTableName, IndexEvent::getGeneration).containsExactly(tuple("clinical_notes", 2L));

        patientChanges("p1", "MRN-1", "Martha", "Reed", "Salem", 60);

        List<IndexEvent> after = indexedAfterTwoLingers();
        assertThat(after).extracting(IndexEvent::getTableName, IndexEvent::getRowKey)
                .containsExactly(tuple("patients", "p1"), tuple("clinical_notes", "1"));
        assertThat(after.get(1).getChunks()).isNotEmpty().allSatisfy(c ->
                assertThat(c.getText()).startsWith("record: clinical notes\npatient: Martha Reed (MRN-1)"));
    }

    @Test
    void aChangeOfAPatientFieldTheHeaderDoesNotShowChunksNoNoteAgain() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();

        patientChanges("p1", "MRN-1", "Martha", "Collins", "Salem", 20);

        assertThat(indexedAfterTwoLingers()).extracting(IndexEvent::getTableName, IndexEvent::getRowKey)
                .containsExactly(tuple("patients", "p1"));
    }

    @Test
    void aNoteMovedToAnotherPatientIsChunkedAgainOnlyUnderThatPatientsNewName() {
        snapshotTwoPatientsAndTheirNotes();
        notes.pipeInput("{\"note_id\":1}", change("u", "false",
                "{\"note_id\":1,\"patient_id\":\"p2\",\"note_text\":\"Filed under the wrong patient at first.\"}", 20));
        ingest.lingerPasses();
        index.readValuesToList();

        patientChanges("p1", "MRN-1", "Martha", "Reed", "Salem", 21);
        assertThat(indexedAfterTwoLingers()).extracting(IndexEvent::getTableName).containsExactly("patients");

        patientChanges("p2", "MRN-2", "Andy", "Perez", "Boston", 22);
        List<IndexEvent> after = indexedAfterTwoLingers();
        assertThat(after).extracting(IndexEvent::getTableName, IndexEvent::getRowKey).containsExactly(
                tuple("patients", "p2"), tuple("clinical_notes", "1"), tuple("clinical_notes", "2"));
        assertThat(after.subList(1, 3)).flatExtracting(IndexEvent::getChunks).allSatisfy(c -> {
            assertThat(c.getText()).startsWith("record: clinical notes\npatient: Andy Perez (MRN-2)");
            assertThat(c.getPatientKey()).isEqualTo("MRN-2");
        });
    }

    @Test
    void aDeletedNoteIsNotBroughtBackByALaterRenameAndAKeyChangeMovesTheNoteAlong() {
        snapshotTwoPatientsAndTheirNotes();
        notes.pipeInput("{\"note_id\":1}", change("d", "false", "null", 20));
        notes.pipeInput("{\"note_id\":2}", "{\"before\":{\"note_id\":2},\"after\":null,\"source\":{\"snapshot\":\"false\",\"lsn\":21},\"op\":\"d\"}");
        notes.pipeInput("{\"note_id\":7}", change("c", "false",
                "{\"note_id\":7,\"patient_id\":\"p2\",\"note_text\":\"Knee pain after a fall.\"}", 21));
        ingest.lingerPasses();
        index.readValuesToList();

        patientChanges("p1", "MRN-1", "Martha", "Reed", "Salem", 22);
        patientChanges("p2", "MRN-2", "Andy", "Perez", "Boston", 23);

        assertThat(indexedAfterTwoLingers()).extracting(IndexEvent::getTableName, IndexEvent::getRowKey).containsExactly(
                tuple("patients", "p1"), tuple("patients", "p2"), tuple("clinical_notes", "7"));
        assertThat(childRowsByPatient()).containsExactly("ehr:p2\u0000ehr:clinical_notes:7");
    }

    @Test
    void aTruncatedTablesNotesAreNotBroughtBackByALaterRename() {
        snapshotTwoPatientsAndTheirNotes();
        notes.pipeInput(null, "{\"before\":null,\"after\":null,\"source\":{\"lsn\":60,\"ts_ms\":1700000000900,"
                + "\"schema\":\"public\",\"table\":\"clinical_notes\"},\"op\":\"t\",\"ts_ms\":1700000000901}");
        ingest.lingerPasses();
        index.readValuesToList();

        patientChanges("p1", "MRN-1", "Martha", "Reed", "Salem", 61);

        assertThat(indexedAfterTwoLingers()).extracting(IndexEvent::getTableName).containsExactly("patients");
        assertThat(ingest.latestStatus("ehr:clinical_notes").getChunks()).isZero();
        assertThat(childRowsByPatient()).isEmpty();
    }

    @Test
    void theNotesByPatientAndARenameNotYetWorkedOffAreInTheChangelogsARestartRestoresFrom() {
        snapshotTwoPatientsAndTheirNotes();
        patientChanges("p1", "MRN-1", "Martha", "Reed", "Salem", 20);

        PatientIdentities restarted = PatientIdentityStores.restored(ingest::changelog);

        assertThat(restarted.nextRenamedChild()).contains(new PatientIdentities.RenamedChild("ehr", "p1", "ehr:clinical_notes:1"));
        assertThat(restarted.nextRenamedChild()).isEmpty();
        assertThat(restarted.of("ehr", Map.of("patient_id", "p1"), new TableProjection("clinical_notes", List.of(), Set.of(), "patient_id")))
                .isEqualTo(new PatientIdentity("p1", "Martha Reed", "MRN-1"));
    }

    @Test
    void thePlannerHandsRowsWithoutVectorsAndThenTheMarkerToTheEmbeddingTasksWhichWriteTheIndexLog() {
        snapshotTwoPatientsAndTheirNotes();

        List<IndexEvent> planned = ingest.toEmbedding().readValuesToList();
        assertThat(planned).extracting(IndexEvent::getKind).containsExactly(
                IndexEventKind.UPSERT_ROW, IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER,
                IndexEventKind.UPSERT_ROW, IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        assertThat(planned.stream().flatMap(e -> e.getChunks().stream())).allSatisfy(c -> assertThat(c.getVector()).isEmpty());
        assertThat(ingest.toEmbedding().readValuesToList()).isEmpty();
        assertThat(index.readValuesToList()).extracting(IndexEvent::getRowKey)
                .containsExactlyElementsOf(planned.stream().map(IndexEvent::getRowKey).toList());
    }

    @Test
    void theTopologyIsAPlannerSubTopologyAndAnEmbeddingSubTopologyPerRepartitionPartition() {
        var described = IngestTopology.build(IngestSettings.defaults(List.of()).withEmbedding(3, "test"),
                model.chunker()::chunkUnderHeader, PassageEmbedder.of(model)).describe();
        assertThat(described.subtopologies()).hasSize(2);
        var embedding = described.subtopologies().stream()
                .filter(s -> s.nodes().stream().anyMatch(n -> n.name().equals("embed"))).findFirst().orElseThrow();
        assertThat(embedding.nodes()).extracting(n -> n.name()).contains("embedding-input", "embed", "index-log-0", "index-log-1",
                "index-log-2", "embedding-progress");
        assertThat(embedding.nodes()).noneMatch(n -> n.name().equals("index-rows"));
    }

    @Test
    void aFirstTableWithOneRowIsPublishedWhenDebeziumReportsItsScanWhicheverIsReadFirst() {
        TestInputTopic<String, String> notifications =
                ingest.input("ehr.debezium-notifications");
        // row first: marked "first" (the whole snapshot's first record), never "last_in_data_collection"
        patients.pipeInput("{\"patient_id\":\"p1\"}", change("r", "first",
                "{\"patient_id\":\"p1\",\"patient_no\":\"MRN-1\",\"first_name\":\"Martha\",\"last_name\":\"Collins\"}", 10));
        notifications.pipeInput("n1", "{\"id\":\"n0\",\"type\":\"STARTED\",\"aggregate_type\":\"Initial Snapshot\",\"additional_data\":{}}");
        ingest.lingerPasses();
        assertThat(index.readValuesToList()).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.UPSERT_ROW);

        notifications.pipeInput("n2", tableScanCompleted("patients", 1));
        ingest.lingerPasses();
        List<IndexEvent> published = index.readValuesToList();
        assertThat(published).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.MARKER);
        assertThat(published.get(0).getTableName()).isEqualTo("patients");
        assertThat(published.get(0).getGeneration()).isEqualTo(1);
        assertThat(published.get(0).getMarker().getRows()).isEqualTo(1);

        // notice first: the row that reaches the reported count publishes
        notifications.pipeInput("n3", tableScanCompleted("clinical_notes", 1));
        notes.pipeInput("{\"note_id\":1}", change("r", "first_in_data_collection",
                "{\"note_id\":1,\"patient_id\":\"p1\",\"note_text\":\"Stable angina.\"}", 10));
        ingest.lingerPasses();
        assertThat(index.readValuesToList()).extracting(IndexEvent::getKind)
                .containsExactly(IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void aTableTheSnapshotFoundEmptyIsPublishedEmptyAndALateNoticeChangesNothing() {
        TestInputTopic<String, String> notifications =
                ingest.input("ehr.debezium-notifications");
        notifications.pipeInput("n1", tableScanCompleted("clinical_notes", 0));
        ingest.lingerPasses();
        List<IndexEvent> published = index.readValuesToList();
        assertThat(published).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.MARKER);
        assertThat(published.get(0).getGeneration()).isEqualTo(1);
        assertThat(published.get(0).getMarker().getRows()).isZero();

        notes.pipeInput("{\"note_id\":1}", change("c", "false",
                "{\"note_id\":1,\"patient_id\":\"p1\",\"note_text\":\"Stable angina.\"}", 20));
        notifications.pipeInput("n2", tableScanCompleted("clinical_notes", 0));
        ingest.lingerPasses();
        List<IndexEvent> after = index.readValuesToList();
        assertThat(after).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.UPSERT_ROW);
        assertThat(after.get(0).getGeneration()).isEqualTo(1);
    }

    @Test
    void materialisedIntoLuceneTheRowsAreSearchableAndUpdatesAndDeletesApply() {
        snapshotTwoPatientsAndTheirNotes();
        notes.pipeInput("{\"note_id\":2}", change("u", "false",
                "{\"note_id\":2,\"patient_id\":\"p2\",\"chief_complaint\":\"joint pain\",\"note_text\":\"Gout flare in the left big toe.\"}", 20));
        notes.pipeInput("{\"note_id\":1}", change("d", "false", "null", 21));
        notes.pipeInput("{\"note_id\":1}", (String) null);
        ingest.lingerPasses();

        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"))) {
            materialise(store, index.readValuesToList());

            assertThat(store.activeGenerations()).containsEntry(new TableRef("ehr", "clinical_notes"), 1L);
            assertThat(store.countRows(new TableRef("ehr", "clinical_notes"))).isEqualTo(1);
            List<SearchHit> gout = store.vectorSearch(model.embedQuery("gout in the toe"), 5, RetrievalFilter.forTables("clinical_notes"));
            assertThat(gout).extracting(h -> h.chunk().row().rowKey()).containsExactly("2");
            assertThat(gout.get(0).chunk().sourcePosition()).isEqualTo("lsn:20");
            assertThat(store.lexicalSearch("heart failure", 5, RetrievalFilter.NONE)).isEmpty();
            assertThat(store.lexicalSearch("Andrew Perez", 5, RetrievalFilter.forPatient("MRN-2")))
                    .extracting(h -> h.chunk().row().table()).containsExactlyInAnyOrder("patients", "clinical_notes");
        }
    }

    @Test
    void materialisedIntoLuceneTheRowsShownFieldsAnswerExactRowSetsAndAnExcludedColumnNeverReachesThem() {
        snapshotTwoPatientsAndTheirNotes();
        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).filteredOn(e -> e.getKind() == IndexEventKind.UPSERT_ROW)
                .allSatisfy(e -> assertThat(e.getChunks().get(0).getFields()).isNotEmpty().doesNotContainKey("ssn")
                        .doesNotContainKey("note_id").doesNotContainKey("patient_id"));

        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"))) {
            materialise(store, events);

            RowSet notesOnly = RowSet.of(RetrievalFilter.forTables("clinical_notes"));
            RowSetResult complaints = store.rowSet(RowSetQuery.of(notesOnly, new RowSetOutput.DistinctValues("chief_complaint", 10)));
            assertThat(complaints.values()).extracting(ValueCount::value).containsExactly("annual exam", "joint pain");
            assertThat(complaints.patients()).isEqualTo(2);
            RowSetResult transplant = store.rowSet(RowSetQuery.of(RowSet.of(RetrievalFilter.forTables("clinical_notes"),
                    new FieldPredicate.HasWords("note_text", "TRANSPLANT")), new RowSetOutput.Rows(10)));
            assertThat(transplant.listedRows()).singleElement().satisfies(r -> {
                assertThat(r.row().rowKey()).isEqualTo("2");
                assertThat(r.patientKey()).isEqualTo("MRN-2");
                assertThat(r.fields()).containsOnlyKeys("chief_complaint", "note_text");
            });
            assertThat(store.rowSet(RowSetQuery.of(RowSet.of(RetrievalFilter.NONE, new FieldPredicate.Present("ssn")),
                    new RowSetOutput.Count())).rows()).isZero();
            assertThat(store.rowSet(RowSetQuery.of(RowSet.of(RetrievalFilter.forTables("patients"),
                    FieldPredicate.InRange.before("birth_date", "1970")), new RowSetOutput.Rows(5))).listedRows())
                    .singleElement().satisfies(r -> assertThat(r.fields()).containsEntry("birth_date", "1961-03-02"));
        }
    }

    @Test
    void unregisteredTablesAndMalformedEventsAreDeadLetteredWhileGoodEventsFlow() {
        TestInputTopic<String, String> billing = ingest.input("ehr.public.billing");
        billing.pipeInput("{\"id\":1}", change("c", "false", "{\"id\":1,\"amount\":\"12\"}", 5));
        patients.pipeInput("{\"patient_id\":\"p9\"}", "{not json");
        patients.pipeInput("{\"patient_id\":\"p3\"}", change("c", "false",
                "{\"patient_id\":\"p3\",\"patient_no\":\"MRN-3\",\"first_name\":\"Diane\",\"last_name\":\"Baker\"}", 30));
        ingest.lingerPasses();

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).extracting(DeadLetter::getReason).containsExactly(
                "table public.billing is not registered for source ehr",
                "change event value is not valid JSON: Unexpected character ('n' (code 110)): was expecting double-quote to start field name");
        assertThat(dead.get(1).getSourceTopic()).isEqualTo("ehr.public.patients");
        assertThat(StandardCharsets.UTF_8.decode(dead.get(1).getValue()).toString()).isEqualTo("{not json");
        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        assertThat(events.get(0).getRowKey()).isEqualTo("p3");
    }

    @Test
    void recordsWrittenIntoTheEmbedTopicByOthersAreDeadLetteredAndTheEmbeddingTaskKeepsEmbedding() {
        TestInputTopic<byte[], byte[]> embedTopic = ingest.rawEmbedTopic(Topics.INGEST_EMBED);
        embedTopic.pipeInput("k".getBytes(StandardCharsets.UTF_8), "garbage, not an index event".getBytes(StandardCharsets.UTF_8));
        IndexEvent withoutRowKey = IndexEvent.newBuilder().setKind(IndexEventKind.DELETE_ROW).setSourceId("ehr").setTableName("patients")
                .setRowKey("").setGeneration(1).setChunks(List.of()).setMarker(null).build();
        embedTopic.pipeInput((byte[]) null, AvroSerde.of(IndexEvent.class).serialize("", withoutRowKey));
        embedTopic.pipeInput("tombstone".getBytes(StandardCharsets.UTF_8), (byte[]) null);
        patients.pipeInput("{\"patient_id\":\"p3\"}", change("c", "false",
                "{\"patient_id\":\"p3\",\"patient_no\":\"MRN-3\",\"first_name\":\"Diane\",\"last_name\":\"Baker\"}", 30));
        ingest.lingerPasses();

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).extracting(DeadLetter::getStage).containsExactly("ingest-embed", "ingest-embed");
        assertThat(dead.get(0).getReason()).startsWith("not an IndexEvent (Avro single-object encoding)");
        assertThat(dead.get(0).getSourceTopic()).isEqualTo(Topics.INGEST_EMBED);
        assertThat(StandardCharsets.UTF_8.decode(dead.get(0).getValue()).toString()).isEqualTo("garbage, not an index event");
        assertThat(dead.get(1).getReason()).isEqualTo("DELETE_ROW event without a row_key");
        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getKind).containsExactly(IndexEventKind.UPSERT_ROW, IndexEventKind.MARKER);
        assertThat(events.get(0).getRowKey()).isEqualTo("p3");
        assertThat(events.get(0).getChunks()).allSatisfy(c -> assertThat(c.getVector()).isNotEmpty());
    }

    @Test
    void aColumnThatCannotBeRenderedIsLeftOutOfTheIndexedRowAndNamedInADeadLetterWhileTheStreamContinues() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        // "ssn" is excluded by the projection: it is dropped without a dead letter whatever its type
        notes.pipeInput("{\"note_id\":3}", change("c", "false", "{\"note_id\":3,\"patient_id\":\"p1\",\"chief_complaint\":\"fall\","
                + "\"site\":{\"wkb\":\"AQEAAAA=\",\"srid\":4326},\"ssn\":{\"v\":1},\"note_text\":\"Bruised left hip after a fall at home.\"}", 40));
        notes.pipeInput("{\"note_id\":4}", change("c", "false", "{\"note_id\":4,\"patient_id\":\"p2\",\"chief_complaint\":\"cough\","
                + "\"note_text\":\"Dry cough for two weeks.\"}", 41));
        ingest.lingerPasses();

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getStage()).isEqualTo("ingest.normalize.column");
        assertThat(dead.get(0).getReason()).isEqualTo("table public.clinical_notes of source ehr: column 'site' (struct)"
                + " cannot be rendered as text and was left out of the indexed row");
        assertThat(dead.get(0).getSourceTopic()).isEqualTo("ehr.public.clinical_notes");
        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getRowKey).containsExactly("3", "4");
        assertThat(events.get(0).getChunks().get(0).getText()).contains("Bruised left hip").doesNotContain("wkb").doesNotContain("site");
    }

    @Test
    void aPrimaryKeyChangeIsADeleteOfTheOldKeyAndACreateOfTheNewOne() {
        snapshotTwoPatientsAndTheirNotes();
        // what Debezium emits for UPDATE ... SET note_id = 7 WHERE note_id = 2
        notes.pipeInput("{\"note_id\":2}", "{\"before\":{\"note_id\":2},\"after\":null,\"source\":{\"snapshot\":\"false\",\"lsn\":30},\"op\":\"d\"}");
        notes.pipeInput("{\"note_id\":2}", (String) null);
        notes.pipeInput("{\"note_id\":7}", change("c", "false",
                "{\"note_id\":7,\"patient_id\":\"p2\",\"chief_complaint\":\"joint pain\",\"note_text\":\"Knee pain after a fall.\"}", 30));
        ingest.lingerPasses();

        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"))) {
            materialise(store, index.readValuesToList());
            TableRef notesTable = new TableRef("ehr", "clinical_notes");
            assertThat(store.countRows(notesTable)).isEqualTo(2);
            assertThat(store.rowChunks(new RowRef("ehr", "clinical_notes", "2"))).isEmpty();
            assertThat(store.rowChunks(new RowRef("ehr", "clinical_notes", "7")))
                    .singleElement().satisfies(c -> assertThat(c.text()).contains("Knee pain after a fall", "Andrew Perez"));
        }
    }

    @Test
    void aColumnAddedAfterTheTableWasFirstIndexedIsHeldBackAndNamedOnceUntilAllowListed() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        for (long lsn : new long[] {40, 41}) {
            notes.pipeInput("{\"note_id\":1}", change("u", "false",
                    "{\"note_id\":1,\"patient_id\":\"p1\",\"chief_complaint\":\"annual exam\",\"note_text\":\"Stable.\","
                            + "\"triage_level\":\"urgent\",\"ssn\":\"999-00-1111\"}", lsn));
        }
        ingest.lingerPasses();

        List<IndexEvent> updates = index.readValuesToList();
        assertThat(updates).hasSize(2).allSatisfy(u -> assertThat(u.getChunks().get(0).getText())
                .contains("chief complaint: annual exam").doesNotContain("triage").doesNotContain("urgent").doesNotContain("999-00-1111"));
        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.getStage()).isEqualTo("ingest.project.new-column");
            assertThat(d.getReason()).isEqualTo("table public.clinical_notes of source ehr: column 'triage_level' was added after"
                    + " the table was first indexed and is not indexed until it is allow-listed (source.fields.clinical_notes)");
            assertThat(d.getSourceTopic()).isEqualTo("ehr.public.clinical_notes");
            assertThat(d.getValue()).isNull();
        });
        assertThat(ingest.latestStatus("ehr:clinical_notes").getUnreviewedColumns()).containsExactly("triage_level");
    }

    @Test
    void aTruncateEmptiesTheTableAsAnEmptyGenerationAndLaterRowsAreIndexedIntoIt() {
        snapshotTwoPatientsAndTheirNotes();
        notes.pipeInput(null, "{\"before\":null,\"after\":null,\"source\":{\"lsn\":60,\"ts_ms\":1700000000900,"
                + "\"schema\":\"public\",\"table\":\"clinical_notes\"},\"op\":\"t\",\"ts_ms\":1700000000901}");
        ingest.lingerPasses();
        List<IndexEvent> beforeInsert = index.readValuesToList();
        IndexEvent marker = beforeInsert.get(beforeInsert.size() - 1);
        assertThat(marker.getKind()).isEqualTo(IndexEventKind.MARKER);
        assertThat(marker.getTableName()).isEqualTo("clinical_notes");
        assertThat(marker.getGeneration()).isEqualTo(2);
        assertThat(marker.getMarker().getRows()).isZero();
        assertThat(ingest.latestStatus("ehr:clinical_notes")).satisfies(s -> {
            assertThat(s.getRows()).isZero();
            assertThat(s.getChunks()).isZero();
            assertThat(s.getActiveGeneration()).isEqualTo(2);
            assertThat(s.getSourcePosition()).isEqualTo("lsn:60");
        });

        notes.pipeInput("{\"note_id\":5}", change("c", "false",
                "{\"note_id\":5,\"patient_id\":\"p2\",\"chief_complaint\":\"rash\",\"note_text\":\"Itchy rash on both forearms.\"}", 61));
        ingest.lingerPasses();
        List<IndexEvent> afterInsert = index.readValuesToList();
        assertThat(afterInsert).extracting(IndexEvent::getRowKey, IndexEvent::getGeneration).containsExactly(tuple("5", 2L));
        assertThat(deadLetters.isEmpty()).isTrue();

        try (LuceneHybridStore store = LuceneHybridStore.open(dir.resolve("index"))) {
            materialise(store, beforeInsert);
            TableRef notesTable = new TableRef("ehr", "clinical_notes");
            assertThat(store.countRows(notesTable)).isZero();
            assertThat(store.lexicalSearch("heart failure", 5, RetrievalFilter.NONE)).isEmpty();
            assertThat(store.countRows(new TableRef("ehr", "patients"))).isEqualTo(2);
            materialise(store, afterInsert);
            assertThat(store.countRows(notesTable)).isEqualTo(1);
        }
    }

    @Test
    void aRowWhoseAllowedFieldsAreAllNullIsNotIndexedAndLeavesTheIndexIfItWasThere() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        notes.pipeInput("{\"note_id\":8}", change("c", "false",
                "{\"note_id\":8,\"patient_id\":\"p1\",\"chief_complaint\":null,\"note_text\":null}", 70));
        notes.pipeInput("{\"note_id\":2}", change("u", "false",
                "{\"note_id\":2,\"patient_id\":\"p2\",\"chief_complaint\":null,\"note_text\":\"  \"}", 71));
        ingest.lingerPasses();

        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).extracting(IndexEvent::getKind, IndexEvent::getRowKey)
                .containsExactly(tuple(IndexEventKind.DELETE_ROW, "2"));
        assertThat(ingest.latestStatus("ehr:clinical_notes")).satisfies(s -> {
            assertThat(s.getRowsSkippedEmpty()).isEqualTo(2);
            assertThat(s.getRows()).isEqualTo(1);
        });
    }

    @Test
    void aFieldOverTheCapFromAnExternalDebeziumIsTruncatedNamedAndTheRowStillIndexed() {
        startOverWithNotesOnly(300, 16 << 20);
        String longText = "Shortness of breath on exertion. ".repeat(40); // 1,320 bytes
        notes.pipeInput("{\"note_id\":9}", change("c", "false",
                "{\"note_id\":9,\"patient_id\":\"p1\",\"chief_complaint\":\"dyspnoea\",\"note_text\":\"" + longText + "\"}", 80));
        ingest.lingerPasses();

        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).filteredOn(e -> e.getKind() == IndexEventKind.UPSERT_ROW).singleElement().satisfies(e -> {
            String text = e.getChunks().stream().map(ChunkRecord::getText).reduce("", String::concat);
            assertThat(text).contains("chief complaint: dyspnoea", "Shortness of breath");
            assertThat(text.split("Shortness of breath", -1).length - 1).isLessThan(40);
        });
        assertThat(deadLetters.readValuesToList()).singleElement().satisfies(d -> {
            assertThat(d.getStage()).isEqualTo("ingest.normalize.field-cap");
            assertThat(d.getReason()).isEqualTo("table public.clinical_notes of source ehr row 9: field 'note_text' (after) has 1320"
                    + " bytes, more than ingest.max-field-bytes (300); it was truncated to 300 bytes and the row is still indexed");
            assertThat(d.getValue()).isNull();
            assertThat(d.getOffset()).isZero();
        });
    }

    @Test
    void aReindexBuildsTheNextGenerationFromTheKeptRowsWhileChangesGoToBothAndThenPublishesIt() {
        snapshotTwoPatientsAndTheirNotes();
        index.readValuesToList();
        ingest.requestReindex("ehr", "clinical_notes");
        notes.pipeInput("{\"note_id\":3}", change("c", "false",
                "{\"note_id\":3,\"patient_id\":\"p1\",\"chief_complaint\":\"cough\",\"note_text\":\"Dry cough for a week.\"}", 50));
        ingest.lingerPasses();
        ingest.lingerPasses();

        List<IndexEvent> events = index.readValuesToList();
        assertThat(events).filteredOn(e -> "3".equals(e.getRowKey())).extracting(IndexEvent::getGeneration).containsExactly(1L, 2L, 2L);
        assertThat(events).filteredOn(e -> e.getKind() == IndexEventKind.UPSERT_ROW && e.getGeneration() == 2)
                .extracting(IndexEvent::getRowKey).containsExactlyInAnyOrder("1", "2", "3", "3");
        IndexEvent marker = events.get(events.size() - 1);
        assertThat(marker.getKind()).isEqualTo(IndexEventKind.MARKER);
        assertThat(marker.getGeneration()).isEqualTo(2);
        assertThat(marker.getMarker().getRows()).isEqualTo(3);

        IngestTableStatus notesStatus = ingest.latestStatus("ehr:clinical_notes");
        assertThat(notesStatus.getActiveGeneration()).isEqualTo(2);
        assertThat(notesStatus.getStagedGeneration()).isZero();
        assertThat(notesStatus.getRows()).isEqualTo(3);
        assertThat(notesStatus.getChunks()).isEqualTo(3);
        assertThat(notesStatus.getSourcePosition()).isEqualTo("lsn:50");
        assertThat(notesStatus.getModelId()).isEqualTo(model.modelId());
    }

    @Test
    void aReindexOfATableWithNothingPublishedOrAControlRecordOfTheOldTextFormChangesNothing() {
        ingest.requestReindex("ehr", "clinical_notes");
        ingest.control().pipeInput("ehr:clinical_notes", "reindex".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ingest.requestReindex("ehr", "billing");
        ingest.lingerPasses();
        assertThat(index.readValuesToList()).isEmpty();
    }

    @Test
    void aRowTooLargeForOneIndexRecordIsDeadLetteredAndTheIndexKeepsItsPreviousVersion() {
        startOverWithNotesOnly(10_000, 20_000);
        notes.pipeInput("{\"note_id\":1}", change("c", "false", "{\"note_id\":1,\"note_text\":\"Mild asthma, inhaler as needed.\"}", 90));
        notes.pipeInput("{\"note_id\":1}", change("u", "false",
                "{\"note_id\":1,\"note_text\":\"" + "Wheezing worse at night despite the inhaler. ".repeat(200) + "\"}", 91));
        notes.pipeInput("{\"note_id\":1}", change("u", "false", "{\"note_id\":1,\"note_text\":\"Asthma controlled on a steroid inhaler.\"}", 92));
        ingest.lingerPasses();

        List<IndexEvent> upserts = index.readValuesToList().stream().filter(e -> e.getKind() == IndexEventKind.UPSERT_ROW).toList();
        assertThat(upserts).extracting(e -> e.getChunks().get(0).getText())
                .satisfiesExactly(t -> assertThat(t).contains("Mild asthma"), t -> assertThat(t).contains("steroid inhaler"));
        AvroSerde<IndexEvent> serde = AvroSerde.of(IndexEvent.class);
        assertThat(upserts).allSatisfy(e -> assertThat((long) serde.serialize(e).length).isLessThanOrEqualTo(
                IndexRecordSize.upperBound(new RowChunks(e.getSourceId(), e.getTableName(), e.getRowKey(),
                        e.getChunks().stream().map(ChunkRecord::getText).toList(), null, null, "", 0,
                        e.getChunks().get(0).getFields()), 384)));
        assertThat(deadLetters.readValuesToList()).singleElement().satisfies(d -> {
            assertThat(d.getStage()).isEqualTo("ingest.write");
            assertThat(d.getReason()).startsWith("table public.clinical_notes of source ehr row 1: ")
                    .endsWith("bytes, more than kafka.max-record-bytes (20000); this version of the row is not indexed");
        });
        assertThat(ingest.latestStatus("ehr:clinical_notes").getRows()).isEqualTo(1);
    }
}
