package org.chartstream.core.store;

import java.util.Objects;

/**
 * One result of one search side.
 *
 * @param chunk the chunk, with its float32 {@link StoredChunk#vector() vector} as the store keeps it
 * @param score the side's own score: cosine similarity in [-1, 1] for the vector side, BM25 for the lexical side;
 *     only comparable within one result list
 * @param rank 1-based position in the result list
 */
public record SearchHit(StoredChunk chunk, double score, int rank) {

  public SearchHit {
    Objects.requireNonNull(chunk, "chunk");
    if (rank < 1) {
      throw new IllegalArgumentException("rank is 1-based: " + rank);
    }
  }
}
