package org.chartstream.core.store.rowset;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What a store found for a {@link RowSetQuery}: always the exact number of rows in the set and of distinct patients
 * among them, and, as the output asked, a list that says whether it is whole.
 *
 * @param output the output this result answers
 * @param rows rows in the set (after {@code except}), each counted once
 * @param patients distinct patients of those rows (rows without a patient add none)
 * @param listedRows the rows listed ({@link RowSetOutput.Rows}, {@link RowSetOutput.Extreme}), in row order
 * @param values the values listed ({@link RowSetOutput.DistinctValues}, {@link RowSetOutput.TopValues})
 * @param total how many items the whole list has: rows for {@code Rows}, distinct values for {@code DistinctValues}
 *     and {@code TopValues}, tied rows for {@code Extreme}; 0 for {@code Count}
 * @param rowsWithoutValue rows of the set without a value for the output's field (0 when it reads none)
 */
public record RowSetResult(RowSetOutput output, long rows, long patients, List<RowSetRow> listedRows,
    List<ValueCount> values, long total, long rowsWithoutValue) {

  /** Row order: source, table, row key. */
  public static final Comparator<RowSetRow> ROW_ORDER = Comparator.comparing((RowSetRow r) -> r.row().sourceId())
      .thenComparing(r -> r.row().table()).thenComparing(r -> r.row().rowKey());

  public RowSetResult {
    Objects.requireNonNull(output, "output");
    listedRows = List.copyOf(listedRows);
    values = List.copyOf(values);
    if (listedRows.size() + values.size() > total) {
      throw new IllegalArgumentException("a result lists more items than its total: " + total);
    }
  }

  /** Only the counts (an empty set, or a {@link RowSetOutput.Count}). */
  public static RowSetResult counted(RowSetOutput output, long rows, long patients) {
    return new RowSetResult(output, rows, patients, List.of(), List.of(), 0, output.valueField() == null ? 0 : rows);
  }

  /** Rows found by a {@link RowSetOutput.Rows} or {@link RowSetOutput.Extreme} output; sorted and capped here. */
  public static RowSetResult listing(RowSetOutput output, long rows, long patients, List<RowSetRow> found,
      long total, long rowsWithoutValue) {
    int cap = switch (output) {
      case RowSetOutput.Rows r -> r.cap();
      case RowSetOutput.Extreme e -> e.cap();
      default -> throw new IllegalArgumentException("not a row listing: " + output);
    };
    List<RowSetRow> sorted = found.stream().sorted(ROW_ORDER).limit(cap).toList();
    return new RowSetResult(output, rows, patients, sorted, List.of(), total, rowsWithoutValue);
  }

  /** True when the list holds fewer items than the set has ({@link #total}). */
  public boolean capped() {
    return listedRows.size() + values.size() < total;
  }

  /** Counts only: values and rows are patient data. */
  @Override
  public String toString() {
    return "RowSetResult[" + output + ", rows=" + rows + ", patients=" + patients + ", listed="
        + (listedRows.size() + values.size()) + "/" + total + "]";
  }
}
