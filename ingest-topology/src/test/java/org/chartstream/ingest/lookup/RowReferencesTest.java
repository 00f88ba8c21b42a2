package org.chartstream.ingest.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.ingest.project.MimicShapedBindings;
import org.chartstream.ingest.project.PatientIdentities;
import org.chartstream.ingest.project.PatientIdentityStores;
import org.chartstream.ingest.project.RowGroups;
import org.chartstream.ingest.project.TableProjection;
import org.junit.jupiter.api.Test;

/**
 * A dictionary row kept as the meanings of its codes (key values trimmed on both sides), a row rendered with them, and
 * which rows a dictionary change reaches: only those naming a code that changed, none for a code no row uses or an
 * update that changes no meaning.
 */
class RowReferencesTest {
    private static final SourceBinding MIMIC = MimicShapedBindings.source();
    private static final TableProjection DIAGNOSES = TableProjection.of(MimicShapedBindings.DIAGNOSES);
    private final Dictionaries dictionaries = new Dictionaries(PatientIdentityStores.store("dictionary-entries"),
            PatientIdentityStores.store("dictionary-rows"));
    private final RowReferences references = new RowReferences(dictionaries,
            new RowGroups(PatientIdentityStores.store("rows-by-reference"), PatientIdentityStores.store("changed-references")));

    @Test
    void aPaddedCodeMatchesItsUnpaddedDictionaryKeyInItsVersionOnly() {
        dictionaries.apply("mimic", MIMIC, "d_icd_diagnoses", "mimic:d_icd_diagnoses:4019|9",
                dictionaryRow("4019", "9", "Unspecified essential hypertension"));

        RowReferences.Rendered nine = references.render("mimic", DIAGNOSES, diagnosis("4019   ", "9"));
        RowReferences.Rendered ten = references.render("mimic", DIAGNOSES, diagnosis("4019", "10"));
        RowReferences.Rendered none = references.render("mimic", DIAGNOSES, diagnosis(null, "9"));

        assertThat(nine.row()).containsEntry("diagnosis", "Unspecified essential hypertension").containsEntry("icd_code", "4019   ");
        assertThat(nine.unresolved()).isZero();
        assertThat(ten.row()).doesNotContainKey("diagnosis");
        assertThat(ten.unresolved()).isEqualTo(1);
        assertThat(none.unresolved()).as("a row without a code has nothing to resolve").isZero();
    }

    @Test
    void aDictionaryChangeReachesTheRowsNamingTheCodeOnlyAndOnlyWhenItsMeaningChanged() {
        references.rowMoved("mimic", "mimic:diagnoses_icd:1|1", DIAGNOSES, null, diagnosis("4019", "9"));
        references.rowMoved("mimic", "mimic:diagnoses_icd:1|2", DIAGNOSES, null, diagnosis("I10", "10"));

        apply(dictionaryRow("4019", "9", "Unspecified essential hypertension"));
        assertThat(drain()).containsExactly("mimic:diagnoses_icd:1|1");
        apply(dictionaryRow("4019", "9", "Unspecified essential hypertension"));
        assertThat(drain()).as("the same meaning again").isEmpty();
        Dictionaries.Applied unused = dictionaries.apply("mimic", MIMIC, "d_icd_diagnoses", "mimic:d_icd_diagnoses:0090|9",
                dictionaryRow("0090", "9", "Infectious colitis"));
        assertThat(unused.changed()).hasSize(1);
        assertThat(drain()).as("a code no row uses").isEmpty();

        Dictionaries.Applied deleted = dictionaries.apply("mimic", MIMIC, "d_icd_diagnoses", "mimic:d_icd_diagnoses:4019|9", null);
        deleted.changed().forEach(references::changed);
        assertThat(deleted.wasKept()).isTrue();
        assertThat(deleted.isKept()).isFalse();
        assertThat(drain()).containsExactly("mimic:diagnoses_icd:1|1");
        assertThat(dictionaries.meanings(Dictionaries.codeKey("mimic", MimicShapedBindings.DIAGNOSIS, diagnosis("4019", "9")))).isEmpty();

        references.rowMoved("mimic", "mimic:diagnoses_icd:1|1", DIAGNOSES, diagnosis("4019", "9"), null);
        apply(dictionaryRow("4019", "9", "Essential hypertension"));
        assertThat(drain()).as("a deleted row is no longer found under its code").isEmpty();
    }

    @Test
    void aRowNamingOnlyItsAdmissionIsFoundUnderTheAdmissionAndReachesItsPatientThroughIt() {
        PatientIdentities patients = PatientIdentityStores.inMemory();
        TableProjection services = TableProjection.of(MimicShapedBindings.SERVICES);
        Map<String, String> service = Map.of("hadm_id", "22595853", "curr_service", "MED");
        references.rowMoved("mimic", "mimic:services:1", services, null, service);

        assertThat(patients.patientIdOf("mimic", service, services)).isNull();
        Optional<String> arrived = patients.rememberEncounter("mimic", MimicShapedBindings.ADMISSIONS,
                Map.of("hadm_id", "22595853", "subject_id", "10014078"));
        assertThat(arrived).contains(PatientIdentities.encounterKey("mimic", "admissions", "22595853"));
        arrived.ifPresent(references::changed);

        assertThat(patients.patientIdOf("mimic", service, services)).isEqualTo("10014078");
        assertThat(drain()).containsExactly("mimic:services:1");
        assertThat(patients.rememberEncounter("mimic", MimicShapedBindings.ADMISSIONS,
                Map.of("hadm_id", "22595853", "subject_id", "10014078", "admission_type", "URGENT"))).as("same patient").isEmpty();
    }

    private void apply(Map<String, String> row) {
        dictionaries.apply("mimic", MIMIC, "d_icd_diagnoses", "mimic:d_icd_diagnoses:" + row.get("icd_code") + "|" + row.get("icd_version"), row)
                .changed().forEach(references::changed);
    }

    private List<String> drain() {
        List<String> rows = new java.util.ArrayList<>();
        for (Optional<String> next = references.nextChanged(); next.isPresent(); next = references.nextChanged()) {
            rows.add(next.get());
        }
        return rows;
    }

    private static Map<String, String> dictionaryRow(String code, String version, String title) {
        return Map.of("icd_code", code, "icd_version", version, "long_title", title);
    }

    private static Map<String, String> diagnosis(String code, String version) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("subject_id", "10014078");
        row.put("hadm_id", "22595853");
        row.put("icd_code", code);
        row.put("icd_version", version);
        return row;
    }
}
