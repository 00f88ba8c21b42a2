package org.chartstream.core.store.rowset;

import java.util.Objects;

/** One value of a field over a row set: how many rows hold it exactly (as written) and how many distinct patients. */
public record ValueCount(String value, long rows, long patients) {
  public ValueCount {
    Objects.requireNonNull(value, "value");
  }

  /** No value: safe for logs. */
  @Override
  public String toString() {
    return "ValueCount[rows=" + rows + ", patients=" + patients + "]";
  }
}
