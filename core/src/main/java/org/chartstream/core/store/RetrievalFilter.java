package org.chartstream.core.store;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Exact restrictions pushed into both search sides. Within one set the values are ORed, between the sets (and the
 * patient) the restrictions are ANDed. An empty set means no restriction; a {@code null} patient means any patient.
 *
 * @param tables table names ({@link RowRef#table()}), of any source
 * @param sourceIds source ids ({@link RowRef#sourceId()})
 * @param rowKeys rows; each value matches either a bare row key ({@link RowRef#rowKey()}) or a full row id
 *     ({@link RowRef#id()}, {@code source:table:rowKey}). Combine bare keys with {@code tables} to be unambiguous
 * @param patient the patient key ({@link StoredChunk#patientKey()}); rows without a patient never match it
 */
public record RetrievalFilter(Set<String> tables, Set<String> sourceIds, Set<String> rowKeys, String patient) {

  /** No restriction. */
  public static final RetrievalFilter NONE = new RetrievalFilter(Set.of(), Set.of(), Set.of(), null);

  public RetrievalFilter {
    tables = clean(tables);
    sourceIds = clean(sourceIds);
    rowKeys = clean(rowKeys);
    patient = patient == null || patient.isBlank() ? null : patient;
  }

  private static Set<String> clean(Collection<String> values) {
    if (values == null || values.isEmpty()) {
      return Set.of();
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String v : values) {
      if (v != null && !v.isEmpty()) {
        out.add(v);
      }
    }
    return out.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(out);
  }

  public static RetrievalFilter forPatient(String patient) {
    return NONE.withPatient(patient);
  }

  public static RetrievalFilter forTables(String... tables) {
    return NONE.withTables(Arrays.asList(tables));
  }

  public static RetrievalFilter forTables(Collection<String> tables) {
    return NONE.withTables(tables);
  }

  public static RetrievalFilter forSources(String... sourceIds) {
    return NONE.withSources(Arrays.asList(sourceIds));
  }

  public static RetrievalFilter forRowKeys(String... rowKeys) {
    return NONE.withRowKeys(Arrays.asList(rowKeys));
  }

  public RetrievalFilter withPatient(String newPatient) {
    return new RetrievalFilter(tables, sourceIds, rowKeys, newPatient);
  }

  public RetrievalFilter withTables(Collection<String> newTables) {
    return new RetrievalFilter(Set.copyOf(newTables), sourceIds, rowKeys, patient);
  }

  public RetrievalFilter withSources(Collection<String> newSourceIds) {
    return new RetrievalFilter(tables, Set.copyOf(newSourceIds), rowKeys, patient);
  }

  public RetrievalFilter withRowKeys(Collection<String> newRowKeys) {
    return new RetrievalFilter(tables, sourceIds, Set.copyOf(newRowKeys), patient);
  }

  /** True when nothing is restricted. */
  public boolean isEmpty() {
    return tables.isEmpty() && sourceIds.isEmpty() && rowKeys.isEmpty() && patient == null;
  }

  /** The same decision a store makes, for stores that filter in the application and for tests. */
  public boolean matches(StoredChunk chunk) {
    RowRef row = chunk.row();
    return (tables.isEmpty() || tables.contains(row.table()))
        && (sourceIds.isEmpty() || sourceIds.contains(row.sourceId()))
        && (rowKeys.isEmpty() || rowKeys.contains(row.rowKey()) || rowKeys.contains(row.id()))
        && (patient == null || patient.equals(chunk.patientKey()));
  }

  /** Sizes only: filter values can be patient data and stay out of logs. */
  @Override
  public String toString() {
    return "RetrievalFilter[tables=" + tables.size() + ", sources=" + sourceIds.size() + ", rowKeys="
        + rowKeys.size() + ", patient=" + (patient == null ? "any" : "one") + "]";
  }
}
