package org.chartstream.core.store;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The checks every {@link HybridStore} makes on what it is asked to write and search with. */
public final class ChunkChecks {
  private ChunkChecks() {}

  /**
   * Checks the chunks of one {@link HybridStore#upsertRow} call: each belongs to {@code row} and {@code generation},
   * chunk indexes are distinct, and every vector is usable ({@link #vector}) and as long as the others.
   *
   * @return the row's vector dimension, 0 for no chunks
   */
  public static int rowUpsert(RowRef row, long generation, List<StoredChunk> chunks) {
    int dim = 0;
    Set<Integer> indexes = new HashSet<>();
    for (StoredChunk c : chunks) {
      Objects.requireNonNull(c, "chunk");
      if (!row.equals(c.row())) {
        throw new IllegalArgumentException("chunk " + c.chunkId() + " belongs to another row than " + row.table()
            + " row being upserted");
      }
      if (c.generation() != generation) {
        throw new IllegalArgumentException("chunk " + c.chunkId() + " has generation " + c.generation()
            + ", the upsert is for generation " + generation);
      }
      if (!indexes.add(c.chunkIndex())) {
        throw new IllegalArgumentException("duplicate chunk index " + c.chunkIndex() + " in one upsert");
      }
      float[] v = c.vector();
      if (v == null || v.length == 0) {
        throw new IllegalArgumentException("chunk " + c.chunkId() + " has no vector");
      }
      if (dim == 0) {
        dim = v.length;
      } else if (v.length != dim) {
        throw new IllegalArgumentException("chunks of one row have different vector dimensions: " + dim + " and "
            + v.length);
      }
      vector(v, "chunk " + c.chunkId());
    }
    return dim;
  }

  /** A vector cosine similarity can use: finite components, not all zero. */
  public static void vector(float[] v, String what) {
    double norm = 0;
    for (float f : v) {
      if (!Float.isFinite(f)) {
        throw new IllegalArgumentException(what + ": vector has a non-finite component");
      }
      norm += (double) f * f;
    }
    if (norm == 0) {
      throw new IllegalArgumentException(what + ": zero vector has no cosine similarity");
    }
  }
}
