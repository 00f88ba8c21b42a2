package org.chartstream.core.store.rowset;

import java.util.Map;
import java.util.Objects;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RowRef;

/**
 * One row of a {@link RowSetResult}: its id, patient and fields (as its first chunk holds them).
 *
 * @param patientKey the row's patient key, or {@code null}
 * @param patient the patient's label, or {@code null}
 */
public record RowSetRow(RowRef row, String patientKey, PatientLabel patient, Map<String, String> fields) {
  public RowSetRow {
    Objects.requireNonNull(row, "row");
    fields = fields == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
  }

  /** No patient key, label or field value: safe for logs. */
  @Override
  public String toString() {
    return "RowSetRow[" + row.tableRef() + ", " + fields.size() + " field(s)]";
  }
}
