package org.chartstream.store.documentdb;

/**
 * How many lists an IVF index is built with and how many of them a search probes, both growing with the collection.
 *
 * <p>Lists: one per {@value #ROWS_PER_LIST} documents up to {@value #SQRT_FROM_ROWS} documents, the square root of
 * the count above (DocumentDB's documented sizing), at least 1 and at most {@value #MAX_LISTS}.
 *
 * <p>Probes: twice the square root of the lists (pgvector's starting point is the square root; the issue-38 run
 * measured recall@10 0.28 probing 10 of 100 lists, so the adapter probes more), never fewer than
 * {@value #MIN_PROBES} (what the engine's own default probes on an index sized this way: ceil(10,000 / (rows /
 * lists)) = 10, so the adapter never probes fewer lists than the engine would) and never more than the lists. Below
 * {@value #MIN_PROBES} lists (under 10,000 documents) every list is probed: an exact scan of a few thousand vectors.
 */
final class IvfSizing {

  static final int ROWS_PER_LIST = 1_000;
  static final long SQRT_FROM_ROWS = 1_000_000;
  /** The square root of 16 million documents: list centres beyond it make every build a long k-means. */
  static final int MAX_LISTS = 4_000;
  static final int MIN_PROBES = 10;

  private IvfSizing() {}

  /** The lists an IVF index built on {@code documents} documents gets. */
  static int lists(long documents) {
    long lists = documents <= SQRT_FROM_ROWS ? ceilDiv(documents, ROWS_PER_LIST)
        : (long) Math.ceil(Math.sqrt((double) documents));
    return (int) Math.max(1, Math.min(MAX_LISTS, lists));
  }

  /** The lists a search of an index with {@code lists} lists probes. */
  static int probes(int lists) {
    if (lists < 1) {
      throw new IllegalArgumentException("an IVF index has at least one list: " + lists);
    }
    int grown = (int) Math.ceil(2 * Math.sqrt(lists));
    return Math.min(lists, Math.max(MIN_PROBES, grown));
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
