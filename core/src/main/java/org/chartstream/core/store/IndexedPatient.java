package org.chartstream.core.store;

import java.util.Objects;

/**
 * One patient as the index knows them ({@link HybridStore#patientsNamed}): the key the one-patient filter matches
 * ({@link StoredChunk#patientKey()}) and the label the ingest wrote on the patient's chunks.
 *
 * @param label {@code null} when the patient's chunks carry none (written before chunks carried labels)
 */
public record IndexedPatient(String patientKey, PatientLabel label) {
  public IndexedPatient {
    Objects.requireNonNull(patientKey, "patientKey");
  }

  /** No patient key or label values: safe for logs. */
  @Override
  public String toString() {
    return "IndexedPatient[" + label + "]";
  }
}
