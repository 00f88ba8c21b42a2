package org.chartstream.core.binding;

/** What a source table is to the pipeline. */
public enum TableRole {
    /** One row per patient: the patient's number, name and birth date live here. */
    PATIENT,
    /** One row per encounter (an admission, a visit), belonging to a patient, with a number people quote. */
    ENCOUNTER,
    /** Clinical facts about a patient or an encounter: diagnoses, procedures, prescriptions, results, notes. */
    EVENT,
    /** Code meanings, joined into the rows that use its codes; never indexed as rows of its own. */
    DICTIONARY
}
