package org.chartstream.core.store;

import java.util.Objects;

/**
 * One row of one source table, identified by its primary key rendered as a string.
 *
 * @param sourceId the source (connector) id
 * @param table the table name
 * @param rowKey the row's primary key (composite keys already joined by the ingest)
 */
public record RowRef(String sourceId, String table, String rowKey) {

  public RowRef {
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(rowKey, "rowKey");
    if (sourceId.isEmpty() || table.isEmpty() || rowKey.isEmpty()) {
      throw new IllegalArgumentException("sourceId, table and rowKey must not be empty");
    }
  }

  public RowRef(TableRef table, String rowKey) {
    this(table.sourceId(), table.table(), rowKey);
  }

  /** {@code source:table:rowKey}: the row's id in citations and dedupe. */
  public String id() {
    return id(sourceId, table, rowKey);
  }

  /**
   * {@link #id()}'s form for any parts, an empty row key included: a source table may hold an empty primary key,
   * which a RowRef refuses and the ingest still carries (the replica dead-letters such a row).
   */
  public static String id(String sourceId, String table, String rowKey) {
    return sourceId + ":" + table + ":" + rowKey;
  }

  /** {@code source:table:rowKey:chunkIndex:generation}: the id of a row's chunk {@code chunkIndex} in {@code generation}. */
  public static String chunkId(String sourceId, String table, String rowKey, int chunkIndex, long generation) {
    return id(sourceId, table, rowKey) + ":" + chunkIndex + ":" + generation;
  }

  /** The table this row belongs to. */
  public TableRef tableRef() {
    return new TableRef(sourceId, table);
  }

  @Override
  public String toString() {
    return id();
  }
}
