package org.chartstream.ingest.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.PatientLabel;
import org.junit.jupiter.api.Test;

class RowProjectorTest {

    private static Map<String, String> medicationRow() {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("medication_id", "17");
        row.put("patient_id", "8b0e6a7c-35c1-4c77-9d5e-0a2d4c1b2f10");
        row.put("encounter_id", "0e7c5e0a-1111-2222-3333-444455556666");
        row.put("rxnorm_code", "860975");
        row.put("description", "24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet");
        row.put("reason_description", "Diabetes mellitus type 2");
        row.put("ssn", "999-12-3456");
        row.put("created_at", "2026-01-01T00:00:00Z");
        row.put("stop_date", null);
        return row;
    }

    @Test
    void writesFieldLinesWithoutAuditColumnsOpaqueIdsOrExcludedFieldsHeadedByThePatient() {
        TableProjection projection = new TableProjection("medications", List.of(), Set.of("ssn"), "patient_id");
        PatientIdentity patient = new PatientIdentity("8b0e6a7c-35c1-4c77-9d5e-0a2d4c1b2f10", "Martha Collins", "MRN-000001");

        String text = RowProjector.text(projection, medicationRow(), patient);

        assertThat(text).isEqualTo("""
                record: medications
                patient: Martha Collins (MRN-000001)
                rxnorm code: 860975
                description: 24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet
                reason description: Diabetes mellitus type 2""");
        assertThat(text).doesNotContain("999-12-3456", "8b0e6a7c", "2026-01-01");
    }

    @Test
    void anAllowListSelectsAndOrdersFields() {
        TableProjection projection = new TableProjection("medications", List.of("description", "rxnorm_code", "ssn"), Set.of("ssn"), null);

        assertThat(RowProjector.text(projection, medicationRow(), null)).isEqualTo("""
                record: medications
                description: 24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet
                rxnorm code: 860975""");
    }

    @Test
    void businessKeysAreKeptEvenWhenTheyLookLikeIds() {
        assertThat(RowProjector.isBusinessKey("patient_no")).isTrue();
        assertThat(RowProjector.isDropped("patient_no", "MRN-000001")).isFalse();
        assertThat(RowProjector.isDropped("encounter_number", "E-17")).isFalse();
        assertThat(RowProjector.isDropped("note_id", "17")).isTrue();
        assertThat(RowProjector.isDropped("external_ref", "8b0e6a7c-35c1-4c77-9d5e-0a2d4c1b2f10")).isTrue();
        assertThat(RowProjector.isDropped("updated_at", "2026")).isTrue();
    }

    @Test
    void identityComesFromTheConfiguredColumns() {
        PatientIdentityColumns columns = new PatientIdentityColumns("patients", "patient_id", List.of("first_name", "last_name"), "patient_no");
        PatientIdentity id = columns.identityOf(Map.of("patient_id", "p1", "first_name", " Brian ", "last_name", "White", "patient_no", "MRN-7"));
        assertThat(id.displayName()).isEqualTo("Brian White");
        assertThat(id.filterKey()).isEqualTo("MRN-7");
        assertThat(PatientIdentity.decode(id.encode())).isEqualTo(id);
    }

    @Test
    void theLabelNamesThePatientAsTheHeaderDoesWithTheBirthYearOfTheBirthDateColumnTheBindingNames() {
        PatientIdentity patient = new PatientIdentity("p1", "Martha Collins", "MRN-000001");
        Map<String, String> row = new LinkedHashMap<>();
        row.put("patient_id", "p1");
        row.put("patient_no", "MRN-000001");
        row.put("date_of_birth", "1961-03-02Z");
        row.put("city", "Salem");
        TableProjection all = patients(List.of(), List.of());

        assertThat(RowProjector.label(all, row, patient)).isEqualTo(new PatientLabel("MRN-000001", "Martha Collins", 1961));
        assertThat(RowProjector.label(patients(List.of(), List.of("date_of_birth")), row, patient))
                .as("an excluded birth date never leaves the source side").isEqualTo(new PatientLabel("MRN-000001", "Martha Collins", null));
        assertThat(RowProjector.label(patients(List.of("city"), List.of()), row, patient))
                .as("nor one the allow-list leaves out").isEqualTo(new PatientLabel("MRN-000001", "Martha Collins", null));
        assertThat(RowProjector.label(new TableProjection("patients", List.of(), Set.of(), "patient_id"), row, patient))
                .as("a binding that names no birth date column: no birth year, whatever a column is called")
                .isEqualTo(new PatientLabel("MRN-000001", "Martha Collins", null));
        assertThat(RowProjector.label(all, medicationRow(), patient)).isEqualTo(new PatientLabel("MRN-000001", "Martha Collins", null));
        assertThat(RowProjector.label(all, row, new PatientIdentity("p1", null, null))).as("a patient known only by id").isNull();
        assertThat(RowProjector.label(all, medicationRow(), null)).isNull();
    }

    private static TableProjection patients(List<String> fields, List<String> excluded) {
        return TableProjection.of(new TableBinding("patients", TableRole.PATIENT, List.of(), "patient_id", null, null, "patient_no",
                List.of(), "date_of_birth", List.of(), null, fields, excluded, Map.of(), Map.of(), List.of(), null, null, EmbedPolicy.ROW));
    }

    @Test
    void aResolvedCodeIsFollowedByItsMeaningUnderTheLookupsFieldAndLabelsNameTheFields() {
        TableProjection diagnoses = TableProjection.of(MimicShapedBindings.DIAGNOSES);
        Map<String, String> row = diagnosisRow();
        row.put("diagnosis", "Unspecified essential hypertension");

        assertThat(RowProjector.text(diagnoses, row, new PatientIdentity("10014078", null, "10014078"))).isEqualTo("""
                record: diagnoses icd
                patient: 10014078
                admission: 22595853
                seq num: 1
                icd code: 4019
                icd version: 9
                diagnosis: Unspecified essential hypertension""");
        assertThat(RowProjector.shownFields(diagnoses, row)).as("names, not labels, key the shown fields")
                .containsExactly(Map.entry("hadm_id", "22595853"), Map.entry("seq_num", "1"), Map.entry("icd_code", "4019"),
                        Map.entry("icd_version", "9"), Map.entry("diagnosis", "Unspecified essential hypertension"));
    }

    @Test
    void anUnresolvedCodeIsShownAloneAndAnIdTheBindingDoesNotListStaysHidden() {
        TableProjection diagnoses = TableProjection.of(MimicShapedBindings.DIAGNOSES);
        Map<String, String> row = diagnosisRow();
        row.put("row_id", "77");

        assertThat(RowProjector.shownFields(diagnoses, row)).containsExactly(Map.entry("hadm_id", "22595853"),
                Map.entry("seq_num", "1"), Map.entry("icd_code", "4019"), Map.entry("icd_version", "9"));
        assertThat(RowProjector.shownFields(TableProjection.of(MimicShapedBindings.ADMISSIONS), Map.of("hadm_id", "22595853",
                "subject_id", "10014078", "admission_type", "URGENT"))).as("an encounter's number is shown, its patient id is not")
                .containsOnlyKeys("hadm_id", "admission_type");
    }

    @Test
    void withoutAFieldListTheMeaningFollowsTheLastCodeColumnInTheRowsOrder() {
        TableProjection unlisted = TableProjection.of(MimicShapedBindings.binding("diagnoses_icd", TableRole.EVENT, "subject_id",
                null, null, null, null, List.of(), Map.of(), List.of(MimicShapedBindings.DIAGNOSIS)));
        Map<String, String> row = new LinkedHashMap<>();
        row.put("diagnosis", "Unspecified essential hypertension");
        row.put("icd_version", "9");
        row.put("icd_code", "4019");
        row.put("seq_num", "1");

        assertThat(RowProjector.shownFields(unlisted, row).keySet()).containsExactly("icd_version", "icd_code", "diagnosis", "seq_num");
    }

    /** A diagnosis row in no particular column order: its table's field list orders the text. */
    private static Map<String, String> diagnosisRow() {
        return new java.util.HashMap<>(Map.of("subject_id", "10014078", "hadm_id", "22595853", "seq_num", "1",
                "icd_code", "4019   ", "icd_version", "9"));
    }

    @Test
    void dropsTheMeaninglessZoneDebeziumPutsOnDates() {
        assertThat(RowProjector.displayValue("2024-05-06Z")).isEqualTo("2024-05-06");
        assertThat(RowProjector.displayValue("2024-05-06T10:11:12.345Z")).isEqualTo("2024-05-06T10:11:12.345Z");
    }

    @Test
    void aPatientTableWithoutNameColumnsHeadsAndLabelsTheRowsWithTheNumber() {
        PatientIdentityColumns columns = new PatientIdentityColumns("patients", "subject_id", List.of(), "subject_id");
        Map<String, String> patientRow = new LinkedHashMap<>();
        patientRow.put("subject_id", "10014078");
        patientRow.put("gender", "F");
        PatientIdentity patient = columns.identityOf(patientRow);
        TableProjection prescriptions = new TableProjection("prescriptions", List.of(), Set.of(), "subject_id");
        Map<String, String> row = new LinkedHashMap<>();
        row.put("subject_id", "10014078");
        row.put("drug", "Furosemide");

        assertThat(patient).isEqualTo(new PatientIdentity("10014078", null, "10014078"));
        assertThat(RowProjector.text(prescriptions, row, patient)).isEqualTo("""
                record: prescriptions
                patient: 10014078
                drug: Furosemide""");
        assertThat(RowProjector.label(prescriptions, row, patient)).isEqualTo(new PatientLabel("10014078", null, null));
        assertThat(patient.filterKey()).isEqualTo("10014078");
    }
}
