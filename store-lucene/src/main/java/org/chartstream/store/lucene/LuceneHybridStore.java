package org.chartstream.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MergeScheduler;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ReferenceManager;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.GenerationSwitch;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.RowTextRejoiner;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded hybrid store: one Lucene index (HNSW cosine vectors + BM25 text with {@link EnglishAnalyzer}) in an
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
 */
public final class LuceneHybridStore implements HybridStore {

  private static final Logger LOG = LoggerFactory.getLogger(LuceneHybridStore.class);

  // ---- fields
  static final String F_CHUNK_ID = "chunk_id";
  /** Internal row identity (unambiguous separator): deletes. */
  static final String F_ROW = "row";
  /** The display row id {@code source:table:rowKey}: row-key filters. */
  static final String F_ROW_ID = "row_id";
  /** Internal row + generation: the term {@code updateDocuments} replaces. */
  static final String F_ROW_GEN = "row_gen";
  static final String F_SOURCE_ID = "source_id";
  static final String F_TABLE = "table";
  /** Internal table identity (source + table). */
  static final String F_TABLE_REF = "table_ref";
  /** Internal table + generation: the active-generation filter. */
  static final String F_TABLE_GEN = "table_gen";
  static final String F_ROW_KEY = "row_key";
  static final String F_PATIENT = "patient";
  static final String F_GENERATION = "generation";
  static final String F_TEXT = "text";
  /** The whole row's text (chunks rejoined), indexed on the row's head chunk only: row-level BM25. */
  static final String F_ROW_TEXT = "row_text";
  /** The row's opening (its first {@value #OPENING_TERMS} terms), on the head chunk: the row's title, as it were. */
  static final String F_ROW_OPENING = "row_opening";
  static final String F_VECTOR = "vector";
  static final String F_SOURCE_POSITION = "source_position";
  static final String F_COMMIT_TS_MS = "commit_ts_ms";
  static final String F_MODEL_ID = "model_id";
  static final String F_CHUNK_INDEX = "chunk_index";
  static final String F_CHUNK_COUNT = "chunk_count";
  /** Present ("1") on exactly one chunk per row and generation: distinct-row counts without a scan. */
  static final String F_ROW_HEAD = "row_head";

  // ---- commit user data
  static final String META_FORMAT = "chartstream.store.format";
  static final String META_DIMENSION = "chartstream.store.vector.dimension";
  static final String META_GENERATION_PREFIX = "chartstream.store.active/";
  static final String CHECKPOINT_PREFIX = "checkpoint/";
  static final String FORMAT_VERSION = "1";

  /** Separates parts of internal keys; rejected inside ids. */
  private static final char SEP = '\u001F';

  private static final int HNSW_MAX_CONN = 16;
  private static final int HNSW_BEAM_WIDTH = 100;
  private static final int HNSW_MERGE_WORKERS = 2;
  /**
   * HNSW candidates (the search beam) of an unfiltered search, before full-precision rescoring keeps the top k.
   * Measured with {@code bench store} (docs/PERFORMANCE.md): recall@10 1.0 at 100 candidates over 5 segments of
   * 100k int8 vectors, so 50 (five per hit of a top 10) over one segment.
   */
  private static final int MIN_CANDIDATES = 50;
  /**
   * A fixed beam loses recall as the graph grows: 50 candidates gave recall@10 1.0 at 100k chunks but 0.81 at 1M (one
   * segment of int8 vectors, {@code bench store}'s clustered corpus, 2026-12-01). So the beam also grows with the
   * index, by one candidate per this many chunks (300 at 1M), up to {@link #MAX_CANDIDATES}.
   */
  private static final int CHUNKS_PER_CANDIDATE = 3_333;
  private static final int MAX_CANDIDATES = 1_000;
  /**
   * A filtered vector search scores every chunk the filter matches when they are at most this many (a patient, a
   * row, a small table): exact results, and cheaper than walking the graph around the filter. Broader filters use
   * Lucene's filtered HNSW search.
   */
  static final int EXACT_FILTER_LIMIT = 20_000;
  /**
   * Vectors are stored twice: int8 scalar-quantised (what the HNSW graph is searched with, a quarter of float32's
   * size) and float32 (for rescoring the candidates and for {@link #rowChunks}).
   */
  private static final ScalarEncoding VECTOR_ENCODING = ScalarEncoding.UNSIGNED_BYTE;
  /**
   * The store is a read-mostly replica that searches every segment's HNSW graph on every query: merge more eagerly
   * than Lucene's default of 10 segments per tier.
   */
  private static final double SEGMENTS_PER_TIER = 4;
  /**
   * Terms of a row's opening: the record type, and for a passage the question or heading it starts with. Measured on
   * liveqa-med-clean (docs/EVALUATION.md): the opening as a second BM25 field lifts row-level BM25 from 0.69 to 0.8.
   */
  static final int OPENING_TERMS = 16;
  /** Weight of the opening against the whole text in the lexical score. */
  static final float OPENING_BOOST = 2f;
  /** Chunks looked at per row of a lexical result: a row's best chunks come first, the rest rarely make top k. */
  private static final int MAX_CHUNKS_PER_ROW_HIT = 8;
  private static final int CANDIDATES_PER_HIT = 5;

  private final Path path;
  private final FSDirectory directory;
  private final EnglishAnalyzer analyzer;
  private final ExecutorService mergeExecutor;
  private final KnnVectorsFormat vectorsFormat;
  private final IndexWriter writer;
  private final SnapshotManager snapshots;

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
  private final Optional<String> rebuildReason;

  private LuceneHybridStore(Path path, FSDirectory directory, EnglishAnalyzer analyzer,
      ExecutorService mergeExecutor, KnnVectorsFormat vectorsFormat, IndexWriter writer,
      SnapshotManager snapshots, Optional<String> rebuildReason) {
    this.rebuildReason = rebuildReason;
    this.path = path;
    this.directory = directory;
    this.analyzer = analyzer;
    this.mergeExecutor = mergeExecutor;
    this.vectorsFormat = vectorsFormat;
    this.writer = writer;
    this.snapshots = snapshots;
    Snapshot s = snapshots.current();
    this.pendingActive = new HashMap<>(s.active());
    this.committedCheckpoint = s.checkpoint();
    this.dimension = new AtomicInteger(s.dimension());
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
    EnglishAnalyzer analyzer = null;
    ExecutorService executor = null;
    IndexWriter writer = null;
    try {
      Files.createDirectories(dir);
      directory = FSDirectory.open(dir);
      logVectorImplementationOnce();
      Optional<String> rebuildReason = OldIndexFormat.discardIfOld(directory, dir);
      analyzer = new EnglishAnalyzer();
      executor = Executors.newFixedThreadPool(HNSW_MERGE_WORKERS, mergeThreads());
      KnnVectorsFormat format = new Lucene104HnswScalarQuantizedVectorsFormat(VECTOR_ENCODING, HNSW_MAX_CONN,
          HNSW_BEAM_WIDTH, HNSW_MERGE_WORKERS, executor);
      TieredMergePolicy mergePolicy = new TieredMergePolicy();
      mergePolicy.setSegmentsPerTier(SEGMENTS_PER_TIER);
      IndexWriterConfig config = new IndexWriterConfig(new PerFieldAnalyzerWrapper(analyzer,
              Map.of(F_ROW_OPENING, new LimitTokenCountAnalyzer(analyzer, OPENING_TERMS))))
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
          .setCommitOnClose(false)
          .setRAMBufferSizeMB(64)
          .setMergePolicy(mergePolicy)
          .setCodec(withVectorsFormat(Codec.getDefault(), format));
      try {
        writer = new IndexWriter(directory, config);
      } catch (LockObtainFailedException e) {
        throw new IllegalStateException("index directory " + dir + " is already open by another store", e);
      }
      if (!DirectoryReader.indexExists(directory)) {
        writer.setLiveCommitData(Map.of(META_FORMAT, FORMAT_VERSION).entrySet(), true);
        writer.commit();
      }
      SnapshotManager snapshots = new SnapshotManager(writer, CommittedState.of(writer.getLiveCommitData()));
      LuceneHybridStore store =
          new LuceneHybridStore(dir, directory, analyzer, executor, format, writer, snapshots, rebuildReason);
      LOG.info("opened Lucene hybrid store at {}: {} active table(s), vector dimension {}", dir,
          store.pendingActive.size(), store.dimension.get() == 0 ? "unknown" : store.dimension.get());
      return store;
    } catch (IOException | RuntimeException e) {
      closeQuietly(writer, directory, analyzer, executor);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot open Lucene hybrid store at " + dir, io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * The default codec with every vector field in {@code format}. Same codec name as the default: the index reads back
   * with the default codec, whose per-field vectors format looks the field's format up by the name it recorded.
   */
  private static Codec withVectorsFormat(Codec base, KnnVectorsFormat format) {
    KnnVectorsFormat perField = new PerFieldKnnVectorsFormat() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
    return new FilterCodec(base.getName(), base) {
      @Override
      public KnnVectorsFormat knnVectorsFormat() {
        return perField;
      }
    };
  }

  private static final java.util.concurrent.atomic.AtomicBoolean VECTOR_IMPLEMENTATION_LOGGED =
      new java.util.concurrent.atomic.AtomicBoolean();

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

  @Override
  public void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(chunks, "chunks");
    checkKeyPart(row.sourceId(), row.table(), row.rowKey());
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
      Term rowGen = new Term(F_ROW_GEN, rowGenKey(row, generation));
      if (chunks.isEmpty()) {
        writer.deleteDocuments(rowGen);
        return;
      }
      List<Document> docs = new ArrayList<>(chunks.size());
      for (int i = 0; i < chunks.size(); i++) {
        docs.add(toDocument(chunks.get(i), i == 0));
      }
      String rowText = rowText(chunks);
      docs.get(0).add(new TextField(F_ROW_TEXT, rowText, Field.Store.NO));
      docs.get(0).add(new TextField(F_ROW_OPENING, rowText, Field.Store.NO));
      writer.updateDocuments(rowGen, docs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.readLock().unlock();
    }
  }

  private int validateChunks(RowRef row, long generation, List<StoredChunk> chunks) {
    int dim = ChunkChecks.rowUpsert(row, generation, chunks);
    int max = vectorsFormat.getMaxDimensions(F_VECTOR);
    if (dim > max) {
      throw new IllegalArgumentException("vector dimension " + dim + " exceeds Lucene's maximum of " + max);
    }
    return dim;
  }

  private static String rowText(List<StoredChunk> chunks) {
    if (chunks.size() == 1) {
      return chunks.get(0).text();
    }
    List<StoredChunk> ordered = new ArrayList<>(chunks);
    ordered.sort(Comparator.comparingInt(StoredChunk::chunkIndex));
    return RowTextRejoiner.rejoin(ordered.stream().map(StoredChunk::text).toList());
  }

  private Document toDocument(StoredChunk c, boolean rowHead) {
    RowRef row = c.row();
    Document d = new Document();
    d.add(new StringField(F_CHUNK_ID, c.chunkId(), Field.Store.YES));
    d.add(new StringField(F_ROW, rowKey(row), Field.Store.NO));
    d.add(new StringField(F_ROW_ID, row.id(), Field.Store.NO));
    d.add(new StringField(F_ROW_GEN, rowGenKey(row, c.generation()), Field.Store.NO));
    d.add(new StringField(F_SOURCE_ID, row.sourceId(), Field.Store.YES));
    d.add(new StringField(F_TABLE, row.table(), Field.Store.YES));
    d.add(new StringField(F_TABLE_REF, tableKey(row.tableRef()), Field.Store.NO));
    d.add(new StringField(F_TABLE_GEN, tableGenKey(row.tableRef(), c.generation()), Field.Store.NO));
    d.add(new StringField(F_ROW_KEY, row.rowKey(), Field.Store.YES));
    if (c.patientKey() != null) {
      d.add(new StringField(F_PATIENT, c.patientKey(), Field.Store.YES));
    }
    d.add(new LongPoint(F_GENERATION, c.generation()));
    d.add(new StoredField(F_GENERATION, c.generation()));
    d.add(new TextField(F_TEXT, c.text(), Field.Store.YES));
    d.add(new KnnFloatVectorField(F_VECTOR, c.vector(), VectorSimilarityFunction.COSINE));
    if (c.sourcePosition() != null) {
      d.add(new StoredField(F_SOURCE_POSITION, c.sourcePosition()));
    }
    d.add(new StoredField(F_COMMIT_TS_MS, c.commitTsMs()));
    if (c.modelId() != null) {
      d.add(new StoredField(F_MODEL_ID, c.modelId()));
    }
    d.add(new StoredField(F_CHUNK_INDEX, c.chunkIndex()));
    d.add(new StoredField(F_CHUNK_COUNT, c.chunkCount()));
    if (rowHead) {
      d.add(new StringField(F_ROW_HEAD, "1", Field.Store.NO));
    }
    return d;
  }

  @Override
  public void deleteRow(RowRef row) {
    Objects.requireNonNull(row, "row");
    checkKeyPart(row.sourceId(), row.table(), row.rowKey());
    writeLock.readLock().lock();
    try {
      ensureOpen();
      writer.deleteDocuments(new Term(F_ROW, rowKey(row)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.readLock().unlock();
    }
  }

  @Override
  public void publish(TableRef table, long generation) {
    Objects.requireNonNull(table, "table");
    checkKeyPart(table.sourceId(), table.table());
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
            .add(new TermQuery(new Term(F_TABLE_REF, tableKey(table))), BooleanClause.Occur.FILTER)
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
      Map<String, String> data = new HashMap<>();
      data.put(META_FORMAT, FORMAT_VERSION);
      if (dimension.get() != 0) {
        data.put(META_DIMENSION, Integer.toString(dimension.get()));
      }
      pendingActive.forEach((t, g) -> data.put(generationKey(t), Long.toString(g)));
      cp.forEach((k, v) -> data.put(CHECKPOINT_PREFIX + k, v));
      writer.setLiveCommitData(data.entrySet(), true);
      writer.commit();
      committedCheckpoint = cp;
      snapshots.refreshTo(CommittedState.of(data.entrySet()));
    } catch (IOException e) {
      throw new UncheckedIOException("commit failed at " + path, e);
    } finally {
      writeLock.writeLock().unlock();
    }
  }

  private static Map<String, String> copyCheckpoint(Map<String, String> checkpoint) {
    Map<String, String> copy = new TreeMap<>();
    checkpoint.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "checkpoint key"),
        Objects.requireNonNull(v, "checkpoint value")));
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Blocks until the writer's background merges have finished. The merged segments become searchable at the next
   * {@link #commit}. For bulk loads and benchmarks: searches over fewer segments are faster, and a measurement taken
   * while merges run measures the merges too.
   */
  public void awaitMerges() {
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

  /**
   * Merges the index down to at most {@code maxSegments} segments and commits (same checkpoint). Every segment has
   * its own HNSW graph that each vector search walks, so a bulk-loaded, read-mostly index searches fastest as one
   * segment (docs/PERFORMANCE.md). Blocks writes while it runs: for after a bulk load, not for the streaming path.
   */
  public void forceMerge(int maxSegments) {
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

  /** Segments of the index that searches currently see (each has its own HNSW graph). */
  public int searchableSegments() {
    return withSnapshot(s -> s.reader().leaves().size());
  }

  /**
   * Writes buffered documents to new segment files without committing them, as a long batch would. For tests that
   * stop a process abruptly with uncommitted segments on disk.
   */
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

  // ------------------------------------------------------------------------------------------------ reads

  @Override
  public Map<String, String> checkpoint() {
    return withSnapshot(Snapshot::checkpoint);
  }

  @Override
  public Map<TableRef, Long> activeGenerations() {
    return withSnapshot(Snapshot::active);
  }

  @Override
  public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
    Objects.requireNonNull(query, "query");
    requireK(k);
    return withSnapshot(s -> {
      if (s.activeFilter() == null || s.dimension() == 0) {
        return List.of();
      }
      if (query.length != s.dimension()) {
        throw new IllegalArgumentException("query vector dimension " + query.length
            + " does not match the store's vector dimension " + s.dimension());
      }
      ChunkChecks.vector(query, "query");
      Query restrict = restriction(s, filter);
      int candidates = candidates(k, s.searcher().getIndexReader().numDocs());
      Query graphFilter = null;
      if (!(restrict instanceof MatchAllDocsQuery)) {
        int matching = s.searcher().count(restrict);
        if (matching == 0) {
          return List.of();
        }
        // Lucene scores every filtered chunk instead of walking the graph when a segment's matches fit the candidates
        candidates = matching <= EXACT_FILTER_LIMIT ? Math.max(candidates, matching) : candidates;
        graphFilter = restrict;
      }
      // the graph is searched with int8 vectors; the candidates are re-ranked with the float32 ones
      Query knn = RescoreTopNQuery.createFullPrecisionRescorerQuery(
          new KnnFloatVectorQuery(F_VECTOR, query, candidates, graphFilter), query, F_VECTOR, candidates);
      TopDocs top = s.searcher().search(knn, k);
      // Lucene's COSINE score is (1 + cos) / 2
      return hits(s, top, score -> 2.0 * score - 1.0);
    });
  }

  /** The HNSW beam for a top k over an index of this many chunks (never fewer than k). */
  static int candidates(int k, int indexedChunks) {
    int bySize = Math.min(MAX_CANDIDATES, indexedChunks / CHUNKS_PER_CANDIDATE);
    return Math.max(Math.max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES), bySize);
  }

  /**
   * Matching chunks ranked by their row's BM25 over the row's whole text plus its opening (boosted), then by their
   * own. A passage retriever
   * scores a passage whole; a long row's terms are spread over its chunks, and chunk-level BM25 would rank each piece
   * alone, below shorter rows that happen to repeat a term. A hit's score is its row's. An index written before rows
   * carried their whole text falls back to chunk-level BM25.
   */
  @Override
  public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    requireK(k);
    Query chunkText = LexicalQueries.build(analyzer, F_TEXT, query);
    if (chunkText == null) {
      return List.of();
    }
    Query rowText = new BooleanQuery.Builder()
        .add(LexicalQueries.build(analyzer, F_ROW_TEXT, query), BooleanClause.Occur.SHOULD)
        .add(new BoostQuery(LexicalQueries.build(analyzer, F_ROW_OPENING, query), OPENING_BOOST), BooleanClause.Occur.SHOULD)
        .build();
    return withSnapshot(s -> {
      if (s.activeFilter() == null) {
        return List.of();
      }
      Query restriction = restriction(s, filter);
      TopDocs rows = s.searcher().search(new BooleanQuery.Builder()
          .add(rowText, BooleanClause.Occur.MUST)
          .add(restriction, BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(F_ROW_HEAD, "1")), BooleanClause.Occur.FILTER)
          .build(), k);
      BooleanQuery.Builder chunks = new BooleanQuery.Builder()
          .add(chunkText, BooleanClause.Occur.MUST)
          .add(restriction, BooleanClause.Occur.FILTER);
      if (rows.scoreDocs.length == 0) {
        return hits(s, s.searcher().search(chunks.build(), k), score -> score);
      }
      StoredFields stored = s.searcher().storedFields();
      Map<String, Float> rowScores = new HashMap<>();
      for (ScoreDoc sd : rows.scoreDocs) {
        rowScores.put(rowKey(toChunk(stored.document(sd.doc)).row()), sd.score);
      }
      List<BytesRef> rowTerms = rowScores.keySet().stream().map(BytesRef::new).toList();
      chunks.add(new TermInSetQuery(F_ROW, rowTerms), BooleanClause.Occur.FILTER);
      TopDocs matching = s.searcher().search(chunks.build(), Math.max(k, rows.scoreDocs.length * MAX_CHUNKS_PER_ROW_HIT));
      record Ranked(StoredChunk chunk, float rowScore, float chunkScore) {}
      List<Ranked> ranked = new ArrayList<>(matching.scoreDocs.length);
      for (ScoreDoc sd : matching.scoreDocs) {
        StoredChunk c = toChunk(stored.document(sd.doc));
        ranked.add(new Ranked(c, rowScores.get(rowKey(c.row())), sd.score));
      }
      ranked.sort(Comparator.comparing(Ranked::rowScore).thenComparing(Ranked::chunkScore).reversed()
          .thenComparing(r -> r.chunk().chunkId()));
      List<SearchHit> out = new ArrayList<>(Math.min(k, ranked.size()));
      for (Ranked r : ranked.subList(0, Math.min(k, ranked.size()))) {
        out.add(new SearchHit(r.chunk(), r.rowScore(), out.size() + 1));
      }
      return List.copyOf(out);
    });
  }

  @Override
  public long countRows(TableRef table) {
    Objects.requireNonNull(table, "table");
    return withSnapshot(s -> {
      Long g = s.active().get(table);
      if (g == null) {
        return 0L;
      }
      Query q = new BooleanQuery.Builder()
          .add(new TermQuery(new Term(F_TABLE_GEN, tableGenKey(table, g))), BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(F_ROW_HEAD, "1")), BooleanClause.Occur.FILTER)
          .build();
      return (long) s.searcher().count(q);
    });
  }

  @Override
  public List<StoredChunk> rowChunks(RowRef row) {
    Objects.requireNonNull(row, "row");
    return withSnapshot(s -> {
      Long g = s.active().get(row.tableRef());
      if (g == null) {
        return List.of();
      }
      IndexSearcher searcher = s.searcher();
      Query q = new TermQuery(new Term(F_ROW_GEN, rowGenKey(row, g)));
      int n = searcher.count(q);
      if (n == 0) {
        return List.of();
      }
      ScoreDoc[] docs = searcher.search(q, n).scoreDocs.clone();
      java.util.Arrays.sort(docs, Comparator.comparingInt(d -> d.doc));
      StoredFields stored = searcher.storedFields();
      List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
      Map<Integer, FloatVectorValues> vectorsByLeaf = new HashMap<>();
      Map<Integer, KnnVectorValues.DocIndexIterator> iterators = new HashMap<>();
      List<StoredChunk> out = new ArrayList<>(docs.length);
      for (ScoreDoc sd : docs) {
        StoredChunk c = toChunk(stored.document(sd.doc));
        int leafIndex = ReaderUtil.subIndex(sd.doc, leaves);
        LeafReaderContext leaf = leaves.get(leafIndex);
        FloatVectorValues values = vectorsByLeaf.get(leafIndex);
        if (values == null && !vectorsByLeaf.containsKey(leafIndex)) {
          values = leaf.reader().getFloatVectorValues(F_VECTOR);
          vectorsByLeaf.put(leafIndex, values);
        }
        int local = sd.doc - leaf.docBase;
        if (values != null) {
          FloatVectorValues leafValues = values;
          KnnVectorValues.DocIndexIterator it = iterators.computeIfAbsent(leafIndex, i -> leafValues.iterator());
          if (it.docID() < local && it.advance(local) == local) {
            c = c.withVector(values.vectorValue(it.index()).clone());
          }
        }
        out.add(c);
      }
      out.sort(Comparator.comparingInt(StoredChunk::chunkIndex));
      return List.copyOf(out);
    });
  }

  @Override
  public long chunkCount() {
    return withSnapshot(s -> s.activeFilter() == null ? 0L : (long) s.searcher().count(s.activeFilter()));
  }

  @Override
  public boolean ready() {
    if (closed) {
      return false;
    }
    try {
      return withSnapshot(s -> !s.active().isEmpty());
    } catch (IllegalStateException e) {
      return false;
    }
  }

  /**
   * The chunks a search may return: the active generations (only restricted when some table has another generation
   * visible, e.g. one being re-indexed) and the caller's filter; {@link MatchAllDocsQuery} when nothing is excluded.
   */
  private Query restriction(Snapshot s, RetrievalFilter filter) {
    RetrievalFilter f = filter == null ? RetrievalFilter.NONE : filter;
    Query generations = s.onlyActiveVisible() ? new MatchAllDocsQuery() : s.activeFilter();
    if (f.isEmpty()) {
      return generations;
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder().add(generations, BooleanClause.Occur.FILTER);
    if (!f.tables().isEmpty()) {
      b.add(termsQuery(F_TABLE, f.tables()), BooleanClause.Occur.FILTER);
    }
    if (!f.sourceIds().isEmpty()) {
      b.add(termsQuery(F_SOURCE_ID, f.sourceIds()), BooleanClause.Occur.FILTER);
    }
    if (!f.rowKeys().isEmpty()) {
      b.add(new BooleanQuery.Builder()
          .add(termsQuery(F_ROW_KEY, f.rowKeys()), BooleanClause.Occur.SHOULD)
          .add(termsQuery(F_ROW_ID, f.rowKeys()), BooleanClause.Occur.SHOULD)
          .build(), BooleanClause.Occur.FILTER);
    }
    if (f.patient() != null) {
      b.add(new TermQuery(new Term(F_PATIENT, f.patient())), BooleanClause.Occur.FILTER);
    }
    return b.build();
  }

  private static Query termsQuery(String field, Set<String> values) {
    if (values.size() == 1) {
      return new TermQuery(new Term(field, values.iterator().next()));
    }
    List<BytesRef> terms = new ArrayList<>(values.size());
    for (String v : values) {
      terms.add(new BytesRef(v));
    }
    return new TermInSetQuery(field, terms);
  }

  private interface ScoreMap {
    double apply(float score);
  }

  private static List<SearchHit> hits(Snapshot s, TopDocs top, ScoreMap scoreMap) throws IOException {
    StoredFields stored = s.searcher().storedFields();
    List<SearchHit> out = new ArrayList<>(top.scoreDocs.length);
    int rank = 1;
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(new SearchHit(toChunk(stored.document(sd.doc)), scoreMap.apply(sd.score), rank++));
    }
    return List.copyOf(out);
  }

  private static StoredChunk toChunk(Document d) {
    RowRef row = new RowRef(d.get(F_SOURCE_ID), d.get(F_TABLE), d.get(F_ROW_KEY));
    return new StoredChunk(
        d.get(F_CHUNK_ID),
        row,
        d.getField(F_CHUNK_INDEX).numericValue().intValue(),
        d.getField(F_CHUNK_COUNT).numericValue().intValue(),
        d.getField(F_GENERATION).numericValue().longValue(),
        d.get(F_TEXT),
        null,
        d.get(F_PATIENT),
        d.get(F_SOURCE_POSITION),
        d.getField(F_COMMIT_TS_MS).numericValue().longValue(),
        d.get(F_MODEL_ID));
  }

  private static void requireK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }

  private interface SnapshotFn<T> {
    T apply(Snapshot s) throws IOException;
  }

  private <T> T withSnapshot(SnapshotFn<T> fn) {
    Snapshot s;
    try {
      s = snapshots.acquire();
    } catch (AlreadyClosedException e) {
      throw new IllegalStateException("store at " + path + " is closed", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return fn.apply(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        snapshots.release(s);
      } catch (IOException e) {
        LOG.warn("releasing a reader failed", e);
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("store at " + path + " is closed");
    }
  }

  @Override
  public void close() {
    writeLock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      // uncommitted writes are discarded: commitOnClose is false, so close() rolls back to the last commit
      closeQuietly(snapshots, writer, directory, analyzer, mergeExecutor);
      LOG.info("closed Lucene hybrid store at {}", path);
    } finally {
      writeLock.writeLock().unlock();
    }
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

  // ------------------------------------------------------------------------------------------------ keys

  private static void checkKeyPart(String... parts) {
    for (String p : parts) {
      if (p.indexOf(SEP) >= 0) {
        throw new IllegalArgumentException("ids must not contain the control character U+001F");
      }
    }
  }

  static String tableKey(TableRef t) {
    return t.sourceId() + SEP + t.table();
  }

  static String tableGenKey(TableRef t, long generation) {
    return tableKey(t) + SEP + generation;
  }

  static String rowKey(RowRef r) {
    return r.sourceId() + SEP + r.table() + SEP + r.rowKey();
  }

  static String rowGenKey(RowRef r, long generation) {
    return rowKey(r) + SEP + generation;
  }

  static String generationKey(TableRef t) {
    return META_GENERATION_PREFIX + enc(t.sourceId()) + "/" + enc(t.table());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String dec(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------------------------------------ snapshot

  /** What one commit's user data says: active generations, checkpoint, vector dimension (0 if none recorded). */
  record CommittedState(Map<TableRef, Long> active, Map<String, String> checkpoint, int dimension) {

    static CommittedState of(Iterable<Map.Entry<String, String>> userData) {
      Map<TableRef, Long> active = new LinkedHashMap<>();
      Map<String, String> checkpoint = new TreeMap<>();
      int dimension = 0;
      if (userData != null) {
        for (Map.Entry<String, String> e : userData) {
          String key = e.getKey();
          if (key.startsWith(CHECKPOINT_PREFIX)) {
            checkpoint.put(key.substring(CHECKPOINT_PREFIX.length()), e.getValue());
          } else if (key.startsWith(META_GENERATION_PREFIX)) {
            String[] parts = key.substring(META_GENERATION_PREFIX.length()).split("/", -1);
            if (parts.length != 2) {
              throw new IllegalStateException("corrupt commit data key " + key);
            }
            active.put(new TableRef(dec(parts[0]), dec(parts[1])), Long.parseLong(e.getValue()));
          } else if (key.equals(META_DIMENSION)) {
            dimension = Integer.parseInt(e.getValue());
          }
        }
      }
      return new CommittedState(Collections.unmodifiableMap(active), Collections.unmodifiableMap(checkpoint),
          dimension);
    }
  }

  /**
   * One commit as searches see it: a reader showing exactly the committed documents and the same commit's
   * {@link CommittedState}. Immutable; swapped as a whole.
   */
  record Snapshot(DirectoryReader reader, IndexSearcher searcher, CommittedState state, int dimension,
      Query activeFilter, boolean onlyActiveVisible) {

    static Snapshot of(DirectoryReader reader, CommittedState state) throws IOException {
      int dimension = state.dimension();
      if (dimension == 0) {
        FieldInfo fi = FieldInfos.getMergedFieldInfos(reader).fieldInfo(F_VECTOR);
        if (fi != null) {
          dimension = fi.getVectorDimension();
        }
      }
      Query activeFilter = null;
      IndexSearcher searcher = new IndexSearcher(reader);
      boolean onlyActiveVisible = false;
      if (!state.active().isEmpty()) {
        List<BytesRef> terms = new ArrayList<>(state.active().size());
        state.active().forEach((t, g) -> terms.add(new BytesRef(tableGenKey(t, g))));
        activeFilter = new TermInSetQuery(F_TABLE_GEN, terms);
        // once per commit: when every live chunk is in an active generation, searches need no generation filter
        onlyActiveVisible = searcher.count(activeFilter) == reader.numDocs();
      }
      return new Snapshot(reader, searcher, state, dimension, activeFilter, onlyActiveVisible);
    }

    Map<TableRef, Long> active() {
      return state.active();
    }

    Map<String, String> checkpoint() {
      return state.checkpoint();
    }
  }

  /**
   * Reference-counted snapshots over near-real-time readers of the writer; the reader's own ref count keeps an old
   * snapshot alive while searches use it. {@link #refreshTo} is only called by the store's commit, under its
   * exclusive lock, right after the writer committed.
   */
  static final class SnapshotManager extends ReferenceManager<Snapshot> {

    private final IndexWriter writer;
    private volatile CommittedState nextState;

    SnapshotManager(IndexWriter writer, CommittedState state) throws IOException {
      this.writer = writer;
      this.nextState = state;
      DirectoryReader reader = DirectoryReader.open(writer, true, false);
      try {
        current = Snapshot.of(reader, state);
      } catch (IOException | RuntimeException e) {
        reader.close();
        throw e;
      }
    }

    Snapshot current() {
      return current;
    }

    void refreshTo(CommittedState state) throws IOException {
      nextState = state;
      maybeRefreshBlocking();
    }

    @Override
    protected void decRef(Snapshot s) throws IOException {
      s.reader().decRef();
    }

    @Override
    protected Snapshot refreshIfNeeded(Snapshot old) throws IOException {
      CommittedState state = nextState;
      DirectoryReader next = DirectoryReader.openIfChanged(old.reader(), writer, true);
      if (next == null) {
        if (state.equals(old.state())) {
          return null;
        }
        // same documents, new commit data (a checkpoint-only commit): the new snapshot shares the reader
        old.reader().incRef();
        next = old.reader();
      }
      try {
        return Snapshot.of(next, state);
      } catch (IOException | RuntimeException e) {
        next.decRef();
        throw e;
      }
    }

    @Override
    protected boolean tryIncRef(Snapshot s) {
      return s.reader().tryIncRef();
    }

    @Override
    protected int getRefCount(Snapshot s) {
      return s.reader().getRefCount();
    }
  }
}
