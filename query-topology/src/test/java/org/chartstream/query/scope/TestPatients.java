package org.chartstream.query.scope;

import java.util.Map;
import org.chartstream.core.store.PatientLabel;

/**
 * The test patients' labels as the ingest writes them on their rows' chunks (RowProjector.label): number and name on
 * every row of the patient, the year of birth on the patient table's row, which holds the birth date. Two patients
 * are known by number alone, as a patient table without name columns labels them.
 */
public final class TestPatients {
    private static final Map<String, PatientLabel> PATIENTS = Map.of(
            "MRN-7", new PatientLabel("MRN-7", "Elizabeth Ross", 1961),
            "MRN-12", new PatientLabel("MRN-12", "Sophia Jackson", 1980),
            "MRN-31", new PatientLabel("MRN-31", "Sophia Brown", 1975),
            "10000032", new PatientLabel("10000032", null, null),
            "10000084", new PatientLabel("10000084", null, null));

    private TestPatients() {
    }

    /** The label of a row of {@code table} whose patient is {@code patientKey}. */
    public static PatientLabel label(String table, String patientKey) {
        PatientLabel patient = PATIENTS.get(patientKey);
        return table.equals("patients") ? patient : new PatientLabel(patient.number(), patient.name(), null);
    }
}
