package org.chartstream.core.store.rowset;

/** What a {@link RowSetQuery} returns about its rows ({@link RowSetResult} always holds their exact counts). */
public sealed interface RowSetOutput {

  /** The rows in row order (source, table, row key), at most {@code cap}. */
  record Rows(int cap) implements RowSetOutput {
    public Rows {
      requirePositive("cap", cap);
    }
  }

  /** The number of rows and of distinct patients, nothing listed. */
  record Count() implements RowSetOutput {}

  /** The distinct values of {@code field} in value order, each with its rows and patients, at most {@code cap}. */
  record DistinctValues(String field, int cap) implements RowSetOutput {
    public DistinctValues {
      field = checkedField(field);
      requirePositive("cap", cap);
    }
  }

  /** The {@code n} most frequent values of {@code field} (most rows first, then value order). */
  record TopValues(String field, int n) implements RowSetOutput {
    public TopValues {
      field = checkedField(field);
      requirePositive("n", n);
    }
  }

  /** Which end of a field's order {@link Extreme} keeps. */
  enum End {
    /** The greatest value (the latest ISO date or time). */
    LATEST,
    /** The smallest value. */
    EARLIEST
  }

  /**
   * The rows whose {@code field} holds the greatest ({@link End#LATEST}) or smallest value, over the whole set or
   * per patient ({@code perPatient}: rows without a patient are then left out); rows tied at that value are all
   * listed, in row order, at most {@code cap}. Rows without the field take no part.
   */
  record Extreme(String field, End end, boolean perPatient, int cap) implements RowSetOutput {
    public Extreme {
      field = checkedField(field);
      java.util.Objects.requireNonNull(end, "end");
      requirePositive("cap", cap);
    }
  }

  /** The field an output reads values from, or {@code null} (rows, count). */
  default String valueField() {
    return switch (this) {
      case DistinctValues d -> d.field();
      case TopValues t -> t.field();
      case Extreme e -> e.field();
      case Rows r -> null;
      case Count c -> null;
    };
  }

  private static void requirePositive(String what, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(what + " must be >= 1: " + n);
    }
  }

  private static String checkedField(String field) {
    if (field == null || field.isBlank()) {
      throw new IllegalArgumentException("the output needs a field (column) name");
    }
    return field;
  }
}
