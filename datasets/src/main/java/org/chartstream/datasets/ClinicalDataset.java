package org.chartstream.datasets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A generated clinical dataset: the rows of each table of {@link ClinicalSchema}, each list in a fixed order
 * (patients by {@code patient_no}; child rows grouped by patient in patient order, then by date).
 */
public record ClinicalDataset(DatasetSpec spec, List<PatientRow> patients, List<EncounterRow> encounters,
                              List<ConditionRow> conditions, List<MedicationRow> medications,
                              List<ClinicalNoteRow> notes) {

    public ClinicalDataset {
        patients = List.copyOf(patients);
        encounters = List.copyOf(encounters);
        conditions = List.copyOf(conditions);
        medications = List.copyOf(medications);
        notes = List.copyOf(notes);
    }

    /** The rows of one table (a name from {@link ClinicalSchema#TABLES}). */
    public List<? extends ClinicalRow> rows(String table) {
        switch (table) {
            case ClinicalSchema.PATIENTS: return patients;
            case ClinicalSchema.ENCOUNTERS: return encounters;
            case ClinicalSchema.CONDITIONS: return conditions;
            case ClinicalSchema.MEDICATIONS: return medications;
            case ClinicalSchema.CLINICAL_NOTES: return notes;
            default: throw new IllegalArgumentException("unknown clinical table: " + table);
        }
    }

    /** Every table's rows, in load order. */
    public Map<String, List<? extends ClinicalRow>> tables() {
        Map<String, List<? extends ClinicalRow>> m = new LinkedHashMap<>();
        for (String t : ClinicalSchema.TABLES) {
            m.put(t, rows(t));
        }
        return m;
    }

    /** Row count per table, in load order. */
    public Map<String, Integer> rowCounts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String t : ClinicalSchema.TABLES) {
            m.put(t, rows(t).size());
        }
        return m;
    }

    public Optional<PatientRow> patient(UUID patientId) {
        return patients.stream().filter(p -> p.patientId().equals(patientId)).findFirst();
    }

    public Optional<PatientRow> patientByNo(String patientNo) {
        return patients.stream().filter(p -> p.patientNo().equals(patientNo)).findFirst();
    }

    /** Case-insensitive lookup by first and last name. */
    public Optional<PatientRow> patientByName(String firstName, String lastName) {
        return patients.stream()
                .filter(p -> p.firstName().toLowerCase(Locale.ROOT).equals(firstName.toLowerCase(Locale.ROOT))
                        && p.lastName().toLowerCase(Locale.ROOT).equals(lastName.toLowerCase(Locale.ROOT)))
                .findFirst();
    }

    public List<EncounterRow> encountersOf(UUID patientId) {
        return of(encounters, patientId);
    }

    public List<ConditionRow> conditionsOf(UUID patientId) {
        return of(conditions, patientId);
    }

    public List<MedicationRow> medicationsOf(UUID patientId) {
        return of(medications, patientId);
    }

    public List<ClinicalNoteRow> notesOf(UUID patientId) {
        return of(notes, patientId);
    }

    /** Patients that have at least one clinical note (the aci-bench identities), in patient order. */
    public List<PatientRow> patientsWithNotes() {
        List<PatientRow> out = new ArrayList<>();
        for (PatientRow p : patients) {
            if (notes.stream().anyMatch(n -> n.patientId().equals(p.patientId()))) {
                out.add(p);
            }
        }
        return out;
    }

    private static <R extends ClinicalRow> List<R> of(List<R> rows, UUID patientId) {
        return rows.stream().filter(r -> r.patientId().equals(patientId)).collect(Collectors.toList());
    }
}
