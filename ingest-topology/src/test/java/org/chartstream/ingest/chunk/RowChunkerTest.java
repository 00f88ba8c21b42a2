package org.chartstream.ingest.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.PatientIdentity;
import org.chartstream.ingest.project.PatientIdentityStores;
import org.chartstream.ingest.project.RowImage;
import org.chartstream.ingest.project.TableProjection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RowChunkerTest {
    private static final TableProjection NOTES = new TableProjection("clinical_notes", List.of(), Set.of(), "patient_id");
    private PatientIdentities patients;
    private RowChunker chunker;

    @BeforeEach
    void open() {
        patients = PatientIdentityStores.inMemory();
        chunker = new RowChunker((header, body) -> List.of(header + "\n" + body), patients);
    }

    @Test
    void theRowsChunkedBeforeTheirPatientWasKnownAreHandedBackOnceWhenThePatientArrives() {
        assertThat(patients.known("ehr", "p9")).isFalse();
        patients.awaitPatient("ehr", "p9", "ehr:clinical_notes:1");
        patients.awaitPatient("ehr", "p9", "ehr:clinical_notes:with\nnewline");
        patients.awaitPatient("ehr", "p9", "ehr:clinical_notes:1");

        assertThat(patients.remember("ehr", new PatientIdentity("p9", "Ida Marwick", "MRN-9")))
                .containsExactly("ehr:clinical_notes:1", "ehr:clinical_notes:with\nnewline");
        assertThat(patients.known("ehr", "p9")).isTrue();
        assertThat(patients.remember("ehr", new PatientIdentity("p9", "Ida Marwick", "MRN-9"))).isEmpty();
    }

    private static RowImage image(Map<String, String> row) {
        return new RowImage(0, 0, "lsn:7", 1_700_000_000_000L, row);
    }

    @Test
    void everyChunkIsHeadedByTheRecordTypeAndThePatientAsThePatientTableNamesThem() {
        patients.remember("ehr", new PatientIdentity("p1", "Martha Collins", "MRN-1"));

        RowChunks chunks = chunker.chunk("ehr", "clinical_notes", "3", NOTES,
                image(Map.of("patient_id", "p1", "note_text", "Dry cough.")));

        assertThat(chunks.pieces()).containsExactly("record: clinical notes\npatient: Martha Collins (MRN-1)\nnote text: Dry cough.");
        assertThat(chunks.patientKey()).isEqualTo("MRN-1");
        assertThat(chunks.position()).isEqualTo("lsn:7");
    }

    @Test
    void aPatientThePatientTableHasNotNamedIsKnownByIdAndATableWithoutPatientsHasNone() {
        RowChunks unnamed = chunker.chunk("ehr", "clinical_notes", "3", NOTES, image(Map.of("patient_id", "p2", "note_text", "x")));
        RowChunks noPatient = chunker.chunk("ehr", "wards", "w1", new TableProjection("wards", List.of(), Set.of(), null),
                image(Map.of("ward", "east")));

        assertThat(unnamed.pieces()).containsExactly("record: clinical notes\nnote text: x");
        assertThat(unnamed.patientKey()).isEqualTo("p2");
        assertThat(noPatient.patientKey()).isNull();
    }

    @Test
    void theChunksCarryTheFieldsTheTextShowsAndNeverAnExcludedOrOpaqueColumn() {
        TableProjection meds = new TableProjection("medications", List.of(), Set.of("ssn"), "patient_id");
        patients.remember("ehr", new PatientIdentity("p1", "Martha Collins", "MRN-1"));
        Map<String, String> row = new java.util.LinkedHashMap<>();
        row.put("medication_id", "41");
        row.put("patient_id", "p1");
        row.put("ssn", "123-45-6789");
        row.put("drug", "Lisinopril 10 MG");
        row.put("start_date", "2024-05-06Z");
        row.put("stop_date", " ");
        row.put("updated_at", "2024-05-07T10:00:00Z");

        RowChunks chunks = chunker.chunk("ehr", "medications", "41", meds, image(row));

        assertThat(chunks.fields()).containsExactly(Map.entry("drug", "Lisinopril 10 MG"),
                Map.entry("start_date", "2024-05-06"));
        assertThat(chunks.pieces().get(0)).endsWith("drug: Lisinopril 10 MG\nstart date: 2024-05-06").doesNotContain("123-45");
    }

    @Test
    void anAllowListDecidesTheFieldsAsItDecidesTheText() {
        TableProjection meds = new TableProjection("medications", List.of("route", "drug"), Set.of("drug"), null);

        RowChunks chunks = chunker.chunk("ehr", "medications", "7", meds,
                image(Map.of("drug", "Amoxicillin", "route", "PO", "dose", "500 mg")));

        assertThat(chunks.fields()).containsExactly(Map.entry("route", "PO"));
    }

    @Test
    void underAFieldsPolicyTwoResultsOfOneTestShareTheirEmbedTextWhileTheirTextAndFieldsKeepTheWholeRow() {
        TableProjection results = TableProjection.of(EmbedTextTest.results(EmbedPolicy.fields(List.of("test"))));

        RowChunks first = chunker.chunk("ehr", "results", "1", results,
                image(Map.of("patient_id", "p1", "test", "Potassium", "value", "4.1")));
        RowChunks second = chunker.chunk("ehr", "results", "2", results,
                image(Map.of("patient_id", "p2", "test", "Potassium", "value", "5.9")));

        assertThat(first.embedText()).isEqualTo("lab test: Potassium").isEqualTo(second.embedText());
        assertThat(first.pieces().get(0)).contains("value: 4.1");
        assertThat(second.fields()).containsEntry("value", "5.9");
        assertThat(chunker.chunk("ehr", "clinical_notes", "3", NOTES, image(Map.of("patient_id", "p1", "note_text", "x"))).embedText())
                .as("the default policy embeds each chunk's own text").isNull();
    }
}
