package org.chartstream.ingest.project;

/**
 * What a child-table row's text carries about its patient: the name and the business number. Two equal identities
 * give a child the same header and filter key, so a patient's change re-chunks its children only when its identity
 * changes.
 */
public record PatientIdentity(String patientId, String displayName, String patientNo) {

    /** The key the one-patient filter matches: the patient number when known, else the raw patient id. */
    public String filterKey() {
        return patientNo != null && !patientNo.isBlank() ? patientNo : patientId;
    }

    public String encode() {
        return patientId + "\t" + nullToEmpty(displayName) + "\t" + nullToEmpty(patientNo);
    }

    public static PatientIdentity decode(String encoded) {
        String[] parts = encoded.split("\t", -1);
        return new PatientIdentity(parts[0], emptyToNull(parts[1]), emptyToNull(parts[2]));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
