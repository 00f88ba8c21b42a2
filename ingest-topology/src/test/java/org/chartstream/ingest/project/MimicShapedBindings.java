package org.chartstream.ingest.project;

import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;

/**
 * Bindings shaped as MIMIC-IV's hosp schema binds them, built in Java (the binding file is parsed elsewhere):
 * patients known by number only, admissions as encounters, diagnoses whose composite code (ICD code and version)
 * resolves through a dictionary, and a table that names only the admission and reaches its patient through it.
 */
public final class MimicShapedBindings {
    public static final TableBinding PATIENTS = binding("patients", TableRole.PATIENT, "subject_id", null, null, "subject_id",
            null, List.of(), Map.of("anchor_age", "age"), List.of());
    public static final TableBinding ADMISSIONS = binding("admissions", TableRole.ENCOUNTER, "subject_id", "hadm_id", null,
            "hadm_id", null, List.of(), Map.of("hadm_id", "admission"), List.of());
    public static final TableBinding DIAGNOSIS_DICTIONARY = binding("d_icd_diagnoses", TableRole.DICTIONARY, null, null, null,
            null, null, List.of(), Map.of(), List.of());
    public static final CodeLookup DIAGNOSIS = new CodeLookup(List.of("icd_code", "icd_version"), "d_icd_diagnoses",
            List.of("icd_code", "icd_version"), "long_title", "diagnosis");
    public static final TableBinding DIAGNOSES = binding("diagnoses_icd", TableRole.EVENT, "subject_id", "hadm_id", null, null,
            null, List.of("hadm_id", "seq_num", "icd_code", "icd_version"), Map.of("hadm_id", "admission"), List.of(DIAGNOSIS));
    /** A table naming only the admission (MIMIC's own such tables, e.g. in the ICU module, are not in the demo's hosp set). */
    public static final TableBinding SERVICES = binding("services", TableRole.EVENT, null, "hadm_id", "admissions", null,
            null, List.of("transfertime", "curr_service"), Map.of("curr_service", "service"), List.of());

    private MimicShapedBindings() {
    }

    public static SourceBinding source() {
        return SourceBinding.of(List.of(PATIENTS, ADMISSIONS, DIAGNOSIS_DICTIONARY, DIAGNOSES, SERVICES));
    }

    public static PatientIdentityColumns patientIdentity() {
        return new PatientIdentityColumns("patients", "subject_id", List.of(), "subject_id");
    }

    /** A binding with only what these tests vary; key, time and embedding as a plain table's. */
    public static TableBinding binding(String table, TableRole role, String patientColumn, String encounterColumn, String via,
                                       String numberColumn, String birthDateColumn, List<String> fields,
                                       Map<String, String> labels, List<CodeLookup> lookups) {
        return new TableBinding(table, role, List.of(), patientColumn, encounterColumn, via, numberColumn, List.of(),
                birthDateColumn, List.of(), null, fields, List.of(), labels, Map.of(), lookups, null, null, EmbedPolicy.ROW);
    }
}
