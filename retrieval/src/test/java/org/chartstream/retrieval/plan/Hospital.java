package org.chartstream.retrieval.plan;

import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.CodeLookup;
import org.chartstream.core.binding.EmbedPolicy;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;
import org.chartstream.core.binding.TableRole;

/**
 * A small hospital shaped like the MIMIC-IV demo's binding (patients known by number, admissions, coded diagnoses and
 * procedures with their meanings looked up, prescriptions with routes and stop times, labs, cultures, transfers): the
 * tables and rows the plan tests ask about, with the answers SQL would give written beside them.
 */
public final class Hospital {
    private Hospital() {
    }

    static TableBinding table(String name, TableRole role, String concept, String conceptField, List<String> time,
                              String end, List<String> fields, Map<String, String> labels, Map<String, List<String>> terms,
                              List<CodeLookup> lookups) {
        return new TableBinding(name, role, List.of(), "subject_id", role == TableRole.PATIENT ? null : "hadm_id", null,
                role == TableRole.PATIENT ? "subject_id" : role == TableRole.ENCOUNTER ? "hadm_id" : null, List.of(), null, time,
                end, fields, List.of(), labels, terms, lookups, concept, conceptField, EmbedPolicy.ROW);
    }

    public static SourceBinding binding() {
        CodeLookup dx = new CodeLookup(List.of("icd_code", "icd_version"), "d_icd_diagnoses", List.of("icd_code", "icd_version"),
                "long_title", "diagnosis");
        CodeLookup px = new CodeLookup(List.of("icd_code", "icd_version"), "d_icd_procedures", List.of("icd_code", "icd_version"),
                "long_title", "procedure");
        return SourceBinding.of(List.of(
                TableBinding.plain("d_icd_diagnoses", TableRole.DICTIONARY),
                TableBinding.plain("d_icd_procedures", TableRole.DICTIONARY),
                table("patients", TableRole.PATIENT, null, null, List.of(), null, List.of("subject_id", "gender", "anchor_age", "dod"),
                        Map.of("anchor_age", "age", "dod", "date of death"), Map.of("anchor_age", List.of("old"), "dod", List.of("died", "death")), List.of()),
                table("admissions", TableRole.ENCOUNTER, "admission", null, List.of("admittime"), "dischtime",
                        List.of("hadm_id", "admittime", "dischtime", "admission_type", "admission_location", "discharge_location"),
                        Map.of("dischtime", "discharge time"), Map.of(), List.of()),
                table("diagnoses_icd", TableRole.EVENT, "diagnosis", "diagnosis", List.of(), null,
                        List.of("hadm_id", "icd_code", "icd_version"), Map.of("hadm_id", "admission"), Map.of(), List.of(dx)),
                table("procedures_icd", TableRole.EVENT, "procedure", "procedure", List.of("chartdate"), null,
                        List.of("hadm_id", "chartdate", "icd_code", "icd_version"), Map.of("hadm_id", "admission"), Map.of(), List.of(px)),
                table("prescriptions", TableRole.EVENT, "medication", "drug", List.of("starttime"), "stoptime",
                        List.of("hadm_id", "drug", "route", "strength", "starttime", "stoptime"), Map.of("hadm_id", "admission"),
                        Map.of("route", List.of("administered", "given by", "route of administration")), List.of()),
                table("labevents", TableRole.EVENT, "lab test", "lab test", List.of("charttime"), null,
                        List.of("lab test", "value", "valueuom", "charttime"), Map.of(), Map.of(), List.of()),
                table("microbiologyevents", TableRole.EVENT, "microbiology test", "test_name", List.of("chartdate"), null,
                        List.of("chartdate", "spec_type_desc", "test_name", "org_name"),
                        Map.of("spec_type_desc", "specimen", "org_name", "organism"), Map.of(), List.of()),
                table("transfers", TableRole.EVENT, "transfer", "careunit", List.of("intime"), "outtime",
                        List.of("eventtype", "careunit", "intime", "outtime"), Map.of("careunit", "care unit"), Map.of(), List.of())));
    }

    public static RowSetIndex rows() {
        RowSetIndex index = new RowSetIndex();
        patient(index, "10000001", "F", "71");
        patient(index, "10000002", "M", "64");
        patient(index, "10000003", "F", "58");
        patient(index, "10000004", "M", "80");
        patient(index, "10000005", "F", "45");
        patient(index, "10000006", "M", "77");
        index.row("admissions", "20000001", "10000001", "hadm_id", "20000001", "admittime", "2150-01-01T10:00:00",
                "dischtime", "2150-01-05T12:00:00", "admission_type", "EW EMER.", "discharge_location", "HOME");
        index.row("admissions", "20000002", "10000001", "hadm_id", "20000002", "admittime", "2160-03-03T08:00:00",
                "dischtime", "2160-03-09T12:00:00", "admission_type", "URGENT", "discharge_location", "SKILLED NURSING FACILITY");
        index.row("admissions", "20000003", "10000002", "hadm_id", "20000003", "admittime", "2125-05-05T09:00:00",
                "dischtime", "2125-05-07T09:00:00", "admission_type", "EW EMER.", "discharge_location", "HOME");
        index.row("admissions", "20000004", "10000004", "hadm_id", "20000004", "admittime", "2170-01-01T01:00:00",
                "admission_type", "EW EMER.");
        dx(index, "d1", "10000001", "20000001", "4019", "9", "Unspecified essential hypertension");
        dx(index, "d2", "10000001", "20000001", "42731", "9", "Atrial fibrillation");
        dx(index, "d3", "10000001", "20000002", "4019", "9", "Unspecified essential hypertension");
        dx(index, "d4", "10000002", "20000003", "I10", "10", "Essential (primary) hypertension");
        dx(index, "d5", "10000003", null, "I110", "10", "Hypertensive heart disease with heart failure");
        dx(index, "d6", "10000004", "20000004", "E119", "10", "Type 2 diabetes mellitus without complications");
        dx(index, "d7", "10000005", null, "25001", "9",
                "Diabetes mellitus without mention of complication, type I [juvenile type], not stated as uncontrolled");
        dx(index, "d8", "10000006", null, "25000", "9",
                "Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled");
        dx(index, "d9", "10000006", null, "I480", "10", "Paroxysmal atrial fibrillation");
        dx(index, "d10", "10000006", null, "I10", "10", "Essential (primary) hypertension");
        rx(index, "r1", "10000001", "Lisinopril", "PO", "10 mg", "2150-01-02T08:00:00", "2150-01-05T08:00:00");
        rx(index, "r2", "10000001", "Atorvastatin", "PO", "40 mg", "2150-01-02T08:00:00", null);
        rx(index, "r3", "10000001", "Warfarin", "PO", "5 mg", "2171-02-01T08:00:00", null);
        rx(index, "r4", "10000002", "Metoprolol Tartrate", "PO", "25 mg", "2125-05-05T10:00:00", "2125-05-07T09:00:00");
        rx(index, "r5", "10000002", "Nystatin Oral Suspension", "PO", "100000 unit/mL", "2125-05-05T10:00:00", null);
        rx(index, "r6", "10000003", "Simvastatin", "PO", "20 mg", "2140-01-01T08:00:00", null);
        rx(index, "r7", "10000003", "Lidocaine-Prilocaine", "TP", "2.5%", "2140-01-01T08:00:00", null);
        rx(index, "r8", "10000004", "MetFORMIN (Glucophage)", "PO", "500 mg", "2170-01-02T08:00:00", null);
        rx(index, "r9", "10000005", "Amoxicillin", "PO/NG", "500 mg", "2150-06-01T08:00:00", "2150-06-08T08:00:00");
        rx(index, "r10", "10000006", "Amoxicillin", "PO", "500 mg", "2155-06-01T08:00:00", "2155-06-08T08:00:00");
        rx(index, "r11", "10000006", "Apixaban", "PO", "5 mg", "2155-06-01T08:00:00", null);
        rx(index, "r12", "10000006", "Metoprolol Tartrate", "PO", "50 mg", "2155-06-01T08:00:00", null);
        rx(index, "r13", "10000005", "Amoxicillin", "PO/NG", "250 mg", "2150-06-02T08:00:00", "2150-06-08T08:00:00");
        rx(index, "r14", "10000005", "Metformin", "PO", "500 mg", "2150-06-02T08:00:00", "2150-06-08T08:00:00");
        index.row("procedures_icd", "x1", "10000001", "hadm_id", "20000001", "chartdate", "2150-01-02", "icd_code", "3961",
                "icd_version", "9", "procedure", "Extracorporeal circulation auxiliary to open heart surgery");
        index.row("procedures_icd", "x2", "10000002", "hadm_id", "20000003", "chartdate", "2125-05-06", "icd_code", "9604",
                "icd_version", "9", "procedure", "Insertion of endotracheal tube");
        index.row("procedures_icd", "x3", "10000006", "chartdate", "2145-05-06", "icd_code", "0BH17EZ",
                "icd_version", "10", "procedure", "Insertion of Endotracheal Airway into Trachea, Via Natural or Artificial Opening");
        index.row("labevents", "l1", "10000001", "lab test", "Creatinine", "value", "1.1", "valueuom", "mg/dL",
                "charttime", "2150-01-02T06:00:00");
        index.row("labevents", "l2", "10000001", "lab test", "Creatinine", "value", "1.4", "valueuom", "mg/dL",
                "charttime", "2160-03-04T06:00:00");
        index.row("labevents", "l3", "10000001", "lab test", "Potassium", "value", "4.1", "valueuom", "mEq/L",
                "charttime", "2160-03-05T06:00:00");
        index.row("microbiologyevents", "m1", "10000001", "chartdate", "2150-01-03", "spec_type_desc", "BLOOD CULTURE",
                "test_name", "Blood Culture, Routine", "org_name", "STAPH AUREUS COAG +");
        index.row("microbiologyevents", "m2", "10000001", "chartdate", "2160-03-04", "spec_type_desc", "URINE",
                "test_name", "URINE CULTURE", "org_name", "ESCHERICHIA COLI");
        index.row("microbiologyevents", "m3", "10000006", "chartdate", "2155-06-02", "spec_type_desc", "URINE",
                "test_name", "URINE CULTURE", "org_name", "ESCHERICHIA COLI");
        index.row("transfers", "t1", "10000001", "eventtype", "admit", "careunit", "Medical Intensive Care Unit (MICU)",
                "intime", "2150-01-01T10:00:00");
        index.row("transfers", "t2", "10000001", "eventtype", "transfer", "careunit", "Med/Surg", "intime", "2150-01-03T10:00:00");
        return index;
    }

    private static void patient(RowSetIndex index, String id, String gender, String age) {
        index.row("patients", id, id, "subject_id", id, "gender", gender, "anchor_age", age);
    }

    private static void dx(RowSetIndex index, String key, String patient, String hadm, String code, String version, String title) {
        if (hadm == null) {
            index.row("diagnoses_icd", key, patient, "icd_code", code, "icd_version", version, "diagnosis", title);
        } else {
            index.row("diagnoses_icd", key, patient, "hadm_id", hadm, "icd_code", code, "icd_version", version, "diagnosis", title);
        }
    }

    private static void rx(RowSetIndex index, String key, String patient, String drug, String route, String strength,
                           String start, String stop) {
        if (stop == null) {
            index.row("prescriptions", key, patient, "drug", drug, "route", route, "strength", strength, "starttime", start);
        } else {
            index.row("prescriptions", key, patient, "drug", drug, "route", route, "strength", strength, "starttime", start,
                    "stoptime", stop);
        }
    }
}
