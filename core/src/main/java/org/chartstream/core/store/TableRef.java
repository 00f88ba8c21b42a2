package org.chartstream.core.store;

import java.util.Objects;

/**
 * One table of one source database: the unit that owns an active generation.
 *
 * @param sourceId the source (connector) id, for example {@code clinic-pg}
 * @param table the table name as the ingest names it, for example {@code public.patients}
 */
public record TableRef(String sourceId, String table) {

  public TableRef {
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(table, "table");
    if (sourceId.isEmpty() || table.isEmpty()) {
      throw new IllegalArgumentException("sourceId and table must not be empty");
    }
  }

  /** {@code source:table}. */
  public String id() {
    return sourceId + ":" + table;
  }

  /** The table whose {@link #id()} is {@code id}: split at the first colon (a source id has none). */
  public static TableRef parse(String id) {
    int colon = id.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("not source:table: " + id);
    }
    return new TableRef(id.substring(0, colon), id.substring(colon + 1));
  }

  @Override
  public String toString() {
    return id();
  }
}
