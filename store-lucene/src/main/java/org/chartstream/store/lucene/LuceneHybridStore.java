package org.chartstream.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;
import org.chartstream.core.store.DelegatingHybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoreReads;
import org.chartstream.core.store.StoreWrites;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded hybrid store: one Lucene index (HNSW cosine vectors + BM25 text with {@link FoldingEnglishAnalyzer}) in an
 * {@link FSDirectory}.
 *
 * <p>Writes go to one {@link IndexWriter} and become visible only at {@link #commit}. Right after each commit,
 * still holding the exclusive lock, the store opens a near-real-time reader from the writer
 * ({@link DirectoryReader#openIfChanged(DirectoryReader, IndexWriter, boolean)}): it shares the writer's pooled
 * segment readers instead of reopening files, and since no write can happen between the commit and the reopen it
 * shows exactly the committed state. The reader and the active-generation table (which lives in the commit user
 * data) are one immutable snapshot, swapped as a whole. So a search sees one commit entirely: all of a batch or
 * none, all of a table's old generation or all of the new one.
 *
 * <p>Row writes ({@link #upsertRow}, {@link #deleteRow}) from several threads run concurrently (each indexing
 * thread builds its own segment and HNSW graph); {@link #publish} and {@link #commit} take the lock exclusively.
 *
 * <p>After an abrupt stop the index opens at its last commit (Lucene writes a commit's files before the
 * {@code segments_N} file that names them). {@link #close()} does not commit: uncommitted writes are discarded.
 *
 * <p>The parts: {@link LuceneSchema} (fields, documents, codec), {@link LuceneStoreWriter} (writes, generations,
 * commits), {@link LuceneStoreSearcher} (kNN, BM25, row lookups on one {@link Snapshot}).
 */
public final class LuceneHybridStore implements DelegatingHybridStore {

  private static final Logger LOG = LoggerFactory.getLogger(LuceneHybridStore.class);

  private static final AtomicBoolean VECTOR_IMPLEMENTATION_LOGGED = new AtomicBoolean();

  private final Path path;
  private final FSDirectory directory;
  private final Analyzer analyzer;
  private final ExecutorService mergeExecutor;
  private final KnnVectorsFormat vectorsFormat;
  private final IndexWriter indexWriter;
  private final SnapshotManager snapshots;
  private final LuceneStoreWriter writer;
  private final LuceneStoreSearcher searcher;
  private final Optional<String> rebuildReason;

  private LuceneHybridStore(Path path, FSDirectory directory, Analyzer analyzer,
      ExecutorService mergeExecutor, KnnVectorsFormat vectorsFormat, IndexWriter indexWriter,
      SnapshotManager snapshots, Optional<String> rebuildReason) {
    this.path = path;
    this.directory = directory;
    this.analyzer = analyzer;
    this.mergeExecutor = mergeExecutor;
    this.vectorsFormat = vectorsFormat;
    this.indexWriter = indexWriter;
    this.snapshots = snapshots;
    this.rebuildReason = rebuildReason;
    this.writer = new LuceneStoreWriter(path, indexWriter, snapshots,
        vectorsFormat.getMaxDimensions(LuceneSchema.F_VECTOR));
    this.searcher = new LuceneStoreSearcher(path, snapshots, analyzer);
  }

  /**
   * The checkpoint of the last durable commit in {@code dir}, read without opening the store: a store another
   * process holds open is left undisturbed (for tools and tests that watch a running pipeline).
   *
   * @return the checkpoint, empty if {@code dir} holds no commit yet
   * @throws UncheckedIOException if the commit cannot be read
   */
  public static Map<String, String> lastCommittedCheckpoint(Path dir) {
    Objects.requireNonNull(dir, "dir");
    try (FSDirectory directory = FSDirectory.open(dir)) {
      if (DirectoryReader.listCommits(directory).isEmpty()) {
        return Map.of();
      }
      return CommittedState.of(SegmentInfos.readLatestCommit(directory).getUserData().entrySet()).checkpoint();
    } catch (IndexNotFoundException e) {
      return Map.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the last commit in " + dir, e);
    }
  }

  /**
   * Opens (or creates) the store in {@code dir}. Only one store may have a directory open at a time (a native file
   * lock, released by the operating system when the holding process dies).
   *
   * @throws IllegalStateException if another store or process holds the directory
   * @throws UncheckedIOException on I/O errors
   */
  public static LuceneHybridStore open(Path dir) {
    Objects.requireNonNull(dir, "dir");
    FSDirectory directory = null;
    Analyzer analyzer = null;
    ExecutorService executor = null;
    IndexWriter indexWriter = null;
    try {
      Files.createDirectories(dir);
      directory = FSDirectory.open(dir);
      logVectorImplementationOnce();
      Optional<String> rebuildReason = OldIndexFormat.discardIfOld(directory, dir);
      analyzer = new FoldingEnglishAnalyzer();
      executor = Executors.newFixedThreadPool(LuceneSchema.HNSW_MERGE_WORKERS, mergeThreads());
      KnnVectorsFormat format = LuceneSchema.vectorsFormat(executor);
      indexWriter = LuceneStoreWriter.openIndexWriter(directory, dir, LuceneSchema.indexAnalyzer(analyzer),
          LuceneSchema.codec(format));
      LuceneStoreWriter.initialiseIfNew(indexWriter);
      SnapshotManager snapshots = new SnapshotManager(indexWriter, CommittedState.of(indexWriter.getLiveCommitData()));
      LuceneHybridStore store =
          new LuceneHybridStore(dir, directory, analyzer, executor, format, indexWriter, snapshots, rebuildReason);
      int dimension = store.writer.dimension();
      LOG.info("opened Lucene hybrid store at {}: {} active table(s), vector dimension {}", dir,
          store.writer.activeTables(), dimension == 0 ? "unknown" : dimension);
      return store;
    } catch (IOException | RuntimeException e) {
      closeQuietly(indexWriter, directory, analyzer, executor);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot open Lucene hybrid store at " + dir, io);
      }
      throw (RuntimeException) e;
    }
  }

  private static void logVectorImplementationOnce() {
    if (!VECTOR_IMPLEMENTATION_LOGGED.compareAndSet(false, true)) {
      return;
    }
    if (simdVectors()) {
      LOG.info("Lucene {} vector implementation: {}", Version.LATEST, vectorImplementation());
    } else {
      LOG.warn("Lucene {} vector implementation: {}", Version.LATEST, vectorImplementation());
    }
  }

  /** Whether Lucene can use the JDK's Vector API (SIMD): the incubator module must be in the boot layer. */
  static boolean simdVectors() {
    return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
  }

  /** Which vector code Lucene runs in this JVM, for the startup log and {@code bench store}. */
  public static String vectorImplementation() {
    return simdVectors()
        ? "Panama Vector API (jdk.incubator.vector, SIMD) on Java " + Runtime.version().feature()
        : "scalar Java (start the JVM with --add-modules jdk.incubator.vector for SIMD) on Java "
            + Runtime.version().feature();
  }

  /** The Lucene version in use. */
  public static String luceneVersion() {
    return Version.LATEST.toString();
  }

  /** The vectors format new segments are written in. */
  public String vectorFormat() {
    return vectorsFormat.toString();
  }

  /**
   * Why this store was opened empty although its directory held an index: the index had been written by an older
   * Lucene and was discarded; its contents come back by replaying the index log from the start.
   */
  /** Exact terms and similar words over the rows' whole text, analysed as the lexical search analyses it. */
  @Override
  public Optional<TermIndex> termIndex() {
    return Optional.of(searcher.termIndex());
  }

  @Override
  public Optional<String> rebuildReason() {
    return rebuildReason;
  }

  private static ThreadFactory mergeThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "chartstream-hnsw-merge-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** The index directory. */
  public Path path() {
    return path;
  }

  // ------------------------------------------------------------------------------------------------ writes

  /** A near-real-time reader over the writes, without a Lucene commit: no fsync. */
  @Override
  public void refresh() {
    writer.refresh();
  }

  /**
   * Blocks until the writer's background merges have finished. The merged segments become searchable at the next
   * {@link #commit}. For bulk loads and benchmarks: searches over fewer segments are faster, and a measurement taken
   * while merges run measures the merges too.
   */
  public void awaitMerges() {
    writer.awaitMerges();
  }

  /**
   * Merges the index down to at most {@code maxSegments} segments and commits (same checkpoint). Every segment has
   * its own HNSW graph that each vector search walks, so a bulk-loaded, read-mostly index searches fastest as one
   * segment (docs/PERFORMANCE.md, "`bench store`"; docs/history/PERFORMANCE-sessions-1-21.md, "Java 25, Lucene 10.6.0,
   * int8 HNSW, one segment"). Blocks writes while it runs: for after a bulk load, not for the streaming path.
   */
  public void forceMerge(int maxSegments) {
    writer.forceMerge(maxSegments);
  }

  /** Segments of the index that searches currently see (each has its own HNSW graph). */
  public int searchableSegments() {
    return searcher.searchableSegments();
  }

  /**
   * Writes buffered documents to new segment files without committing them, as a long batch would. For tests that
   * stop a process abruptly with uncommitted segments on disk.
   */
  void flushWithoutCommit() {
    writer.flushWithoutCommit();
  }

  // ------------------------------------------------------------------------------------------------ reads

  @Override
  public List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
    return searcher.weightedLexicalSearch(query, k, filter);
  }

  @Override
  public boolean weighsLexicalTerms() {
    return true;
  }

  @Override
  public boolean answersRowSets() {
    return true;
  }

  /** Keyword fields and doc values per column on each row's head document ({@link LuceneRowSets}). */
  @Override
  public RowSetResult rowSet(RowSetQuery query) {
    return searcher.rowSet(query);
  }

  @Override
  public long rowsWithoutFields(RetrievalFilter filter) {
    return searcher.rowsWithoutFields(filter);
  }

  @Override
  public StoreWrites writes() {
    return writer;
  }

  @Override
  public StoreReads reads() {
    return searcher;
  }

  @Override
  public boolean ready() {
    if (writer.isClosed()) {
      return false;
    }
    try {
      return searcher.hasActiveTables();
    } catch (IllegalStateException e) {
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  @Override
  public void close() {
    // uncommitted writes are discarded: commitOnClose is false, so closing the writer rolls back to the last commit
    writer.close(() -> {
      closeQuietly(snapshots, indexWriter, directory, analyzer, mergeExecutor);
      LOG.info("closed Lucene hybrid store at {}", path);
    });
  }

  private static void closeQuietly(Object... resources) {
    for (Object r : resources) {
      if (r == null) {
        continue;
      }
      try {
        if (r instanceof ExecutorService e) {
          e.shutdown();
        } else if (r instanceof AutoCloseable c) {
          c.close();
        }
      } catch (Exception e) {
        LOG.warn("closing {} failed", r.getClass().getSimpleName(), e);
      }
    }
  }
}
