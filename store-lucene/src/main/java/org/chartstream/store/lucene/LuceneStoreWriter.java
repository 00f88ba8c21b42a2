package org.chartstream.store.lucene;

import static org.chartstream.store.lucene.LuceneSchema.CHECKPOINT_PREFIX;
import static org.chartstream.store.lucene.LuceneSchema.F_GENERATION;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW;
import static org.chartstream.store.lucene.LuceneSchema.F_ROW_GEN;
import static org.chartstream.store.lucene.LuceneSchema.F_TABLE_REF;
import static org.chartstream.store.lucene.LuceneSchema.F_VECTOR;
import static org.chartstream.store.lucene.LuceneSchema.FORMAT_VERSION;
import static org.chartstream.store.lucene.LuceneSchema.META_DIMENSION;
import static org.chartstream.store.lucene.LuceneSchema.META_FORMAT;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.GenerationSwitch;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoreWrites;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's write side: row upserts and deletes, generation switches and commits on one {@link IndexWriter}. The
 * active-generation table, the checkpoint and the vector dimension go into each commit's user data; as a commit
 * starts, holding the exclusive lock, the {@link SnapshotManager} moves searches to it (a near-real-time reader), then
 * the commit makes it durable.
 *
 * <p>Row writes from several threads run concurrently (each indexing thread builds its own segment and HNSW graph);
 * publish, commit, merges and close take the lock exclusively.
 */
final class LuceneStoreWriter implements StoreWrites {

  private static final Logger LOG = LoggerFactory.getLogger(LuceneStoreWriter.class);

  /**
   * The store is a read-mostly replica that searches every segment's HNSW graph on every query: merge more eagerly
   * than Lucene's default of 10 segments per tier.
   */
  private static final double SEGMENTS_PER_TIER = 4;

  private final Path path;
  private final IndexWriter writer;
  private final SnapshotManager snapshots;
  private final int maxDimensions;

  /**
   * Row writes hold it shared, publish/commit/close exclusively: the active table below only changes under the
   * exclusive lock, so concurrent row writes read it safely. Searches never take it.
   */
  private final ReentrantReadWriteLock writeLock = new ReentrantReadWriteLock();

  private final Map<TableRef, Long> pendingActive;
  private Map<String, String> committedCheckpoint;
  /** 0 until the first vector is written; set once (concurrent row writes race for it). */
  private final AtomicInteger dimension;
  private volatile boolean closed;

  /**
   * @param maxDimensions the largest vector dimension the vectors format accepts
   */
  LuceneStoreWriter(Path path, IndexWriter writer, SnapshotManager snapshots, int maxDimensions) {
    this.path = path;
    this.writer = writer;
    this.snapshots = snapshots;
    this.maxDimensions = maxDimensions;
    Snapshot s = snapshots.current();
    this.pendingActive = new HashMap<>(s.active());
    this.committedCheckpoint = s.checkpoint();
    this.dimension = new AtomicInteger(s.dimension());
  }

  /**
   * The index writer on {@code directory}. Uncommitted writes are discarded at close.
   *
   * @throws IllegalStateException if another store or process holds the directory
   */
  static IndexWriter openIndexWriter(Directory directory, Path dir, Analyzer analyzer, Codec codec)
      throws IOException {
    TieredMergePolicy mergePolicy = new TieredMergePolicy();
    mergePolicy.setSegmentsPerTier(SEGMENTS_PER_TIER);
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
        .setCommitOnClose(false)
        .setRAMBufferSizeMB(64)
        .setMergePolicy(mergePolicy)
        .setCodec(codec);
    try {
      return new IndexWriter(directory, config);
    } catch (LockObtainFailedException e) {
      throw new IllegalStateException("index directory " + dir + " is already open by another store", e);
    }
  }

  /** Gives a new index a first commit that records its format. */
  static void initialiseIfNew(IndexWriter writer) throws IOException {
    if (!DirectoryReader.indexExists(writer.getDirectory())) {
      writer.setLiveCommitData(Map.of(META_FORMAT, FORMAT_VERSION).entrySet(), true);
      writer.commit();
    }
  }

  /** Tables with an active generation, published ones included. */
  int activeTables() {
    return pendingActive.size();
  }

  /** The store's vector dimension, 0 while unknown. */
  int dimension() {
    return dimension.get();
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(chunks, "chunks");
    LuceneSchema.checkKeyPart(row.sourceId(), row.table(), row.rowKey());
    int dim = validateChunks(row, generation, chunks);
    writeLock.readLock().lock();
    try {
      ensureOpen();
      Long active = pendingActive.get(row.tableRef());
      if (active != null && generation < active) {
        LOG.debug("ignoring a write into superseded generation {} of {} (active {})", generation,
            row.tableRef(), active);
        return;
      }
      if (dim != 0 && !dimension.compareAndSet(0, dim) && dimension.get() != dim) {
        throw new IllegalArgumentException("vector dimension " + dim + " of row " + row.table()
            + " does not match the store's vector dimension " + dimension.get() + " (recorded at " + path
            + "); an embedding model with another dimension needs a new index");
      }
      Term rowGen = new Term(F_ROW_GEN, LuceneSchema.rowGenKey(row, generation));
      if (chunks.isEmpty()) {
        writer.deleteDocuments(rowGen);
        return;
      }
      writer.updateDocuments(rowGen, LuceneSchema.rowDocuments(chunks));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.readLock().unlock();
    }
  }

  private int validateChunks(RowRef row, long generation, List<StoredChunk> chunks) {
    int dim = ChunkChecks.rowUpsert(row, generation, chunks);
    if (dim > maxDimensions) {
      throw new IllegalArgumentException("vector dimension " + dim + " exceeds Lucene's maximum of " + maxDimensions);
    }
    return dim;
  }

  @Override
  public void deleteRow(RowRef row) {
    Objects.requireNonNull(row, "row");
    LuceneSchema.checkKeyPart(row.sourceId(), row.table(), row.rowKey());
    writeLock.readLock().lock();
    try {
      ensureOpen();
      writer.deleteDocuments(new Term(F_ROW, LuceneSchema.rowKey(row)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.readLock().unlock();
    }
  }

  @Override
  public void publish(TableRef table, long generation) {
    Objects.requireNonNull(table, "table");
    LuceneSchema.checkKeyPart(table.sourceId(), table.table());
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      Long active = pendingActive.get(table);
      if (!GenerationSwitch.changesActive(table, active, generation)) {
        return;
      }
      pendingActive.put(table, generation);
      if (generation > Long.MIN_VALUE) {
        // superseded cleanup, in the same commit as the switch
        writer.deleteDocuments(new BooleanQuery.Builder()
            .add(new TermQuery(new Term(F_TABLE_REF, LuceneSchema.tableKey(table))), BooleanClause.Occur.FILTER)
            .add(LongPoint.newRangeQuery(F_GENERATION, Long.MIN_VALUE, generation - 1), BooleanClause.Occur.FILTER)
            .build());
      }
      LOG.info("publishing generation {} of {} (was {}) at the next commit", generation, table,
          active == null ? "none" : active);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  @Override
  public void commit(Map<String, String> checkpoint) {
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      Map<String, String> cp = checkpoint == null ? committedCheckpoint : copyCheckpoint(checkpoint);
      Map<String, String> data = commitData(cp);
      writer.setLiveCommitData(data.entrySet(), true);
      // searches move to the new state before the commit's fsyncs (about 120 ms of a one-row commit on this
      // machine's disk, docs/history/PERFORMANCE-sessions-1-21.md, "`bench freshness` after cutting the hops"): a crash
      // in between loses no data, since the materializer replays the log from the previous commit's checkpoint, and the
      // searches of this process end with it
      snapshots.refreshTo(CommittedState.of(data.entrySet()));
      writer.commit();
      committedCheckpoint = cp;
    } catch (IOException e) {
      throw new UncheckedIOException("commit failed at " + path, e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  /** Searches move to the writes so far and the pending generation switches; the checkpoint stays the last commit's. */
  void refresh() {
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      snapshots.refreshTo(CommittedState.of(commitData(committedCheckpoint).entrySet()));
    } catch (IOException e) {
      throw new UncheckedIOException("refresh failed at " + path, e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  /** The user data of a commit: format, dimension, active generations (pending switches included), checkpoint. */
  private Map<String, String> commitData(Map<String, String> checkpoint) {
    Map<String, String> data = new HashMap<>();
    data.put(META_FORMAT, FORMAT_VERSION);
    if (dimension.get() != 0) {
      data.put(META_DIMENSION, Integer.toString(dimension.get()));
    }
    pendingActive.forEach((t, g) -> data.put(LuceneSchema.generationKey(t), Long.toString(g)));
    checkpoint.forEach((k, v) -> data.put(CHECKPOINT_PREFIX + k, v));
    return data;
  }

  private static Map<String, String> copyCheckpoint(Map<String, String> checkpoint) {
    Map<String, String> copy = new TreeMap<>();
    checkpoint.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "checkpoint key"),
        Objects.requireNonNull(v, "checkpoint value")));
    return Collections.unmodifiableMap(copy);
  }

  /** Blocks until the background merges have finished; see {@link LuceneHybridStore#awaitMerges()}. */
  void awaitMerges() {
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      MergeScheduler scheduler = writer.getConfig().getMergeScheduler();
      do {
        writer.maybeMerge();
        if (scheduler instanceof ConcurrentMergeScheduler concurrent) {
          concurrent.sync();
        }
      } while (writer.hasPendingMerges());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  /** Merges down to at most {@code maxSegments} segments, then commits with the same checkpoint. */
  void forceMerge(int maxSegments) {
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      writer.forceMerge(maxSegments);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.writeLock().unlock();
    }
    commit(null);
  }

  /** Writes buffered documents to new segment files without committing them. */
  void flushWithoutCommit() {
    writeLock.writeLock().lock();
    try {
      ensureOpen();
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  /**
   * Marks the writer closed and runs {@code release} (which closes the index writer and what it writes with),
   * once, under the exclusive lock: no row write is in flight when the resources go.
   */
  void close(Runnable release) {
    writeLock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      release.run();
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("store at " + path + " is closed");
    }
  }
}
