package org.chartstream.ingest.project;

/**
 * What a child-table row's text carries about its patient: the name and the business number, or the number alone when
 * the patient table has no name columns (the number is then the patient's display). Two equal identities
 * give a child the same header and filter key, so a patient's change re-chunks its children only when its identity
 * changes.
 */
public record PatientIdentity(String patientId, String displayName, String patientNo) {

    /** The key the one-patient filter matches: the patient number when known, else the raw patient id. */
    public String filterKey() {
        return patientNo != null && !patientNo.isBlank() ? patientNo : patientId;
    }

    /**
     * How a row's header names the patient: {@code Martha Collins (MRN-000001)}, the name alone, or the number alone
     * for a patient table without name columns ({@code 10014078}); null for a patient known only by id.
     */
    public String shown() {
        if (displayName != null) {
            return patientNo == null ? displayName : displayName + " (" + patientNo + ")";
        }
        return patientNo;
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
