package org.chartstream.core.store.rowset;

import java.util.Objects;

/**
 * An exact question over the store's rows: the rows of {@code rows}, without those of {@code except} (if any), and
 * what to return about them.
 *
 * @param rows the row set
 * @param except rows to leave out, or {@code null}
 * @param exceptBy whether {@code except} removes the same rows ({@link ExceptBy#ROW}) or every row of a patient who
 *     has a row in it ({@link ExceptBy#PATIENT}: "patients with hypertension who do not take lisinopril"); ignored
 *     without {@code except}
 * @param output what the result lists
 */
public record RowSetQuery(RowSet rows, RowSet except, ExceptBy exceptBy, RowSetOutput output) {

  /** How {@link RowSetQuery#except} removes rows. */
  public enum ExceptBy {
    /** The rows of the except set. */
    ROW,
    /**
     * The rows of every patient who has a row in the except set; rows without a patient stay (no patient of theirs
     * has one).
     */
    PATIENT
  }

  public RowSetQuery {
    Objects.requireNonNull(rows, "rows");
    Objects.requireNonNull(output, "output");
    exceptBy = exceptBy == null ? ExceptBy.ROW : exceptBy;
  }

  public static RowSetQuery of(RowSet rows, RowSetOutput output) {
    return new RowSetQuery(rows, null, ExceptBy.ROW, output);
  }

  /** The same query without the rows of {@code excluded}, removed as {@code by} says. */
  public RowSetQuery except(RowSet excluded, ExceptBy by) {
    return new RowSetQuery(rows, excluded, by, output);
  }

  public RowSetQuery withOutput(RowSetOutput newOutput) {
    return new RowSetQuery(rows, except, exceptBy, newOutput);
  }
}
