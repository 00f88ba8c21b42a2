package org.chartstream.core.store.rowset;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts a field's values over a row set as a store reads them (one value and patient per row, or per group of rows),
 * and turns the counts into a {@link RowSetOutput.DistinctValues} or {@link RowSetOutput.TopValues} result.
 */
public final class ValueTally {

  private final Map<String, long[]> rowsByValue = new TreeMap<>();
  private final Map<String, Set<String>> patientsByValue = new TreeMap<>();

  /** {@code rows} rows hold {@code value}, all of {@code patientKey} ({@code null}: rows without a patient). */
  public void add(String value, String patientKey, long rows) {
    rowsByValue.computeIfAbsent(value, v -> new long[1])[0] += rows;
    Set<String> patients = patientsByValue.computeIfAbsent(value, v -> new HashSet<>());
    if (patientKey != null) {
      patients.add(patientKey);
    }
  }

  /** The result for {@code output} over a set of {@code setRows} rows and {@code setPatients} patients. */
  public RowSetResult result(RowSetOutput output, long setRows, long setPatients) {
    List<ValueCount> all = new ArrayList<>(rowsByValue.size());
    long withValue = 0;
    for (Map.Entry<String, long[]> e : rowsByValue.entrySet()) {
      all.add(new ValueCount(e.getKey(), e.getValue()[0], patientsByValue.get(e.getKey()).size()));
      withValue += e.getValue()[0];
    }
    List<ValueCount> listed = switch (output) {
      case RowSetOutput.DistinctValues d -> all.subList(0, Math.min(d.cap(), all.size()));
      case RowSetOutput.TopValues t -> all.stream()
          .sorted(Comparator.comparingLong(ValueCount::rows).reversed().thenComparing(ValueCount::value))
          .limit(t.n()).toList();
      default -> throw new IllegalArgumentException("not a value output: " + output);
    };
    return new RowSetResult(output, setRows, setPatients, List.of(), listed, all.size(), setRows - withValue);
  }
}
