package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbDatabase.BATCH_SIZE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_INDEX;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_TERMS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SCORE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE_GEN;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.VECTOR;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_EPOCH;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_VECTOR_INDEX_LISTS;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.IndexedPatient;
import org.chartstream.core.store.PatientTerms;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoreReads;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's read side: every call reads the committed epoch first ({@link #readView()}) and then only sees that
 * commit's chunks. Vector search pushes the whole filter into {@code cosmosSearch} unless the server refuses it,
 * scanning exactly when the filter is selective; lexical search is {@code $text}, its hits scored by rank
 * ({@link DocumentDbPipelines#lexicalRankScore}). Hits and row lookups carry each chunk's vector.
 */
final class DocumentDbSearcher implements StoreReads {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbSearcher.class);

  private final DocumentDbSettings settings;
  private final DocumentDbDatabase database;
  private final MongoCollection<Document> records;

  /** The most matching chunks a table- or source-scoped vector search scans exactly. */
  static final int EXACT_SCAN_MAX_CHUNKS = 2_000;

  private static final String VECTOR_SEARCH = "vector search ($search.cosmosSearch)";

  private volatile ReadView cachedView;
  private volatile boolean vectorFilterPushedDown;

  /**
   * What a reader sees: one committed epoch, its checkpoint and each table's active generation at it, and the lists
   * of the IVF index as last built ({@code null} when none is recorded).
   */
  record ReadView(long epoch, Map<String, String> checkpoint, Map<TableRef, Long> active, List<String> activeKeys,
      Integer ivfLists) {}

  DocumentDbSearcher(DocumentDbSettings settings, DocumentDbDatabase database) {
    this.settings = settings;
    this.database = database;
    this.records = database.records();
    this.vectorFilterPushedDown = settings.vectorFilterMode() != DocumentDbSettings.VectorFilterMode.POST_FILTER;
  }

  /** The committed state as of now: one read of the commit state, and of the pointers when the epoch moved. */
  ReadView readView() {
    database.ensureOpen();
    Document s = database.stateDocument();
    long epoch = s.get(STATE_EPOCH, Number.class).longValue();
    Number lists = s.get(STATE_VECTOR_INDEX_LISTS, Number.class);
    Integer ivfLists = lists == null ? null : lists.intValue();
    ReadView cached = cachedView;
    if (cached != null && cached.epoch() == epoch) {
      if (!Objects.equals(cached.ivfLists(), ivfLists)) {
        cached = new ReadView(epoch, cached.checkpoint(), cached.active(), cached.activeKeys(), ivfLists);
        cachedView = cached;
      }
      return cached;
    }
    Map<TableRef, Long> active = database.activeAt(epoch);
    List<String> keys = new ArrayList<>(active.size());
    active.forEach((t, g) -> keys.add(DocumentDbPipelines.tableGenKey(t.sourceId(), t.table(), g)));
    ReadView view = new ReadView(epoch, DocumentDbSchema.readCheckpoint(s), active, List.copyOf(keys), ivfLists);
    cachedView = view;
    return view;
  }

  @Override
  public Map<String, String> checkpoint() {
    return readView().checkpoint();
  }

  @Override
  public Map<TableRef, Long> activeGenerations() {
    return readView().active();
  }

  @Override
  public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
    Objects.requireNonNull(query, "query");
    requireK(k);
    if (query.length != settings.dimension()) {
      throw new IllegalArgumentException("query vector dimension " + query.length
          + " does not match the store's vector dimension " + settings.dimension());
    }
    ChunkChecks.vector(query, "query");
    ReadView view = readView();
    if (view.active().isEmpty()) {
      return List.of();
    }
    Document restriction = DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), filter);
    Document options = approximateSearchOptions(settings, k, view.ivfLists());
    if (vectorFilterPushedDown) {
      try {
        return pushedDownSearch(query, k, filter, restriction, options);
      } catch (MongoException e) {
        if (settings.vectorFilterMode() != DocumentDbSettings.VectorFilterMode.AUTO || !isFilterRefusal(e)) {
          throw e;
        }
        vectorFilterPushedDown = false;
        LOG.warn("the server at {} refuses a filter inside cosmosSearch ({}); vector searches over-fetch and"
            + " filter afterwards from now on, which can return fewer than k hits for selective filters",
            database.hosts(), e.getMessage());
      }
    }
    return postFilteredSearch(query, k, restriction, view.ivfLists());
  }

  /**
   * A selective search scans its few matching vectors exactly; any other runs the approximate search and, when that
   * returns fewer than k hits, the exact one once more, which fills k whenever k chunks match.
   */
  private List<SearchHit> pushedDownSearch(float[] query, int k, RetrievalFilter filter, Document restriction,
      Document searchOptions) {
    if (isSelective(filter, restriction)) {
      return runSearch(exactPipeline(query, k, restriction), VECTOR_SEARCH);
    }
    List<SearchHit> approximate = runSearch(DocumentDbPipelines.vectorSearch(query, k, searchOptions, restriction),
        VECTOR_SEARCH);
    return fillShortfall(approximate, k, () -> runSearch(exactPipeline(query, k, restriction), VECTOR_SEARCH));
  }

  /** The approximate hits, or the exact search's when the approximate search returned fewer than k. */
  static List<SearchHit> fillShortfall(List<SearchHit> approximate, int k, Supplier<List<SearchHit>> exact) {
    return approximate.size() >= k ? approximate : exact.get();
  }

  /** The first pipeline a pushed-down vector search sends: exact when the filter is selective. */
  List<Document> pushedDownPipeline(float[] query, int k, RetrievalFilter filter, ReadView view) {
    Document restriction = DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), filter);
    return isSelective(filter, restriction) ? exactPipeline(query, k, restriction)
        : DocumentDbPipelines.vectorSearch(query, k, approximateSearchOptions(settings, k, view.ivfLists()),
            restriction);
  }

  private static List<Document> exactPipeline(float[] query, int k, Document restriction) {
    return DocumentDbPipelines.vectorSearch(query, k, DocumentDbPipelines.exactSearch(), restriction);
  }

  /**
   * Selective: scoped to patients or rows (always few chunks), or to tables or sources holding at most
   * {@value #EXACT_SCAN_MAX_CHUNKS} matching chunks (one indexed count, stopped at the bound).
   */
  private boolean isSelective(RetrievalFilter filter, Document restriction) {
    if (isSelectiveByKind(filter)) {
      return true;
    }
    if (filter == null || (filter.tables().isEmpty() && filter.sourceIds().isEmpty())) {
      return false;
    }
    return records.countDocuments(restriction, new CountOptions().limit(EXACT_SCAN_MAX_CHUNKS + 1))
        <= EXACT_SCAN_MAX_CHUNKS;
  }

  /** A patient or row filter: the chunks of a few rows, where an approximate filtered search can under-fill. */
  static boolean isSelectiveByKind(RetrievalFilter filter) {
    return filter != null && (filter.patient() != null || !filter.rowKeys().isEmpty());
  }

  /**
   * The approximate search's parameters. HNSW: the settings' {@code efSearch} ({@value
   * DocumentDbSettings#DEFAULT_EF_SEARCH} by default) raised to k (a smaller list returns fewer than k hits); with
   * none configured, the engine's own unless k exceeds it. IVF: the configured {@code nProbes} (at most the index's
   * lists: a configured number may exceed the lists a small collection got), else
   * {@link IvfSizing#probes} of the lists the index was built with, else (no build recorded) the engine's own.
   */
  static Document approximateSearchOptions(DocumentDbSettings settings, int candidates, Integer ivfLists) {
    return switch (settings.vectorIndexKind()) {
      case HNSW -> {
        Integer configured = settings.numCandidates();
        if (configured == null && candidates <= DocumentDbSettings.ENGINE_DEFAULT_EF_SEARCH) {
          yield new Document();
        }
        int ef = Math.max(configured == null ? 0 : configured, candidates);
        yield new Document("efSearch", Math.min(ef, DocumentDbSettings.MAX_CANDIDATES));
      }
      case IVF -> {
        if (settings.ivfProbes() != null) {
          int probes = ivfLists == null ? settings.ivfProbes() : Math.min(settings.ivfProbes(), ivfLists);
          yield new Document("nProbes", probes);
        }
        yield ivfLists == null ? new Document() : new Document("nProbes", IvfSizing.probes(ivfLists));
      }
    };
  }

  /** Over-fetches until k hits pass the filter or the fetch reaches its limit. */
  private List<SearchHit> postFilteredSearch(float[] query, int k, Document restriction, Integer ivfLists) {
    int fetch = Math.min(Math.max(k, k * settings.overFetchFactor()), settings.maxOverFetch());
    while (true) {
      List<SearchHit> hits = runSearch(DocumentDbPipelines.vectorSearchPostFiltered(query, k, fetch,
          approximateSearchOptions(settings, fetch, ivfLists), restriction), VECTOR_SEARCH);
      if (hits.size() >= k || fetch >= settings.maxOverFetch()) {
        return hits;
      }
      fetch = Math.min(fetch * 4, settings.maxOverFetch());
    }
  }

  static boolean isFilterRefusal(MongoException e) {
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    return m.contains("filter is not supported") || (m.contains("filter") && m.contains("not supported"));
  }

  @Override
  public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    requireK(k);
    String text = TextSearchQuery.of(query);
    if (text == null) {
      return List.of();
    }
    ReadView view = readView();
    if (view.active().isEmpty()) {
      return List.of();
    }
    Document restriction = DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), filter);
    List<SearchHit> ranked =
        runSearch(DocumentDbPipelines.lexicalSearch(text, k, restriction), "text search ($text)");
    List<SearchHit> hits = new ArrayList<>(ranked.size());
    for (SearchHit h : ranked) {
      hits.add(new SearchHit(h.chunk(), DocumentDbPipelines.lexicalRankScore(h.rank()), h.rank()));
    }
    return List.copyOf(hits);
  }

  private List<SearchHit> runSearch(List<Document> pipeline, String what) {
    List<SearchHit> hits = new ArrayList<>();
    try {
      for (Document d : records.aggregate(pipeline).batchSize(BATCH_SIZE)) {
        hits.add(new SearchHit(DocumentDbSchema.toChunk(d), d.get(SCORE, Number.class).doubleValue(),
            hits.size() + 1));
      }
    } catch (MongoCommandException e) {
      if (isUnsupportedSearch(e)) {
        throw new UnsupportedOperationException("the server at " + database.hosts() + " does not support " + what
            + ": it is not a DocumentDB engine with vector and text search (a plain MongoDB server or a test"
            + " double?). Server said: " + e.getErrorMessage(), e);
      }
      throw e;
    }
    return List.copyOf(hits);
  }

  static boolean isUnsupportedSearch(MongoException e) {
    String m = String.valueOf(e instanceof MongoCommandException c ? c.getErrorMessage() : e.getMessage());
    return e.getCode() == 40324 || m.contains("Unrecognized pipeline stage name")
        || m.contains("unknown operator: $search") || m.contains("unknown top level operator: $text")
        || m.contains("text index required");
  }

  /**
   * {@link org.chartstream.core.store.HybridStore#patientsNamed}: the committed row heads whose patient terms hold
   * one of the words (indexed: {@code patients_by_term}), read without text or vector, one per patient (its first
   * row by row id).
   */
  @Override
  public List<IndexedPatient> patientsNamed(Set<String> terms, int limit, RetrievalFilter filter) {
    Objects.requireNonNull(terms, "terms");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1: " + limit);
    }
    ReadView view = readView();
    if (terms.isEmpty() || view.active().isEmpty()) {
      return List.of();
    }
    Document match = DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), filter)
        .append(PATIENT_TERMS, new Document("$in", List.copyOf(new TreeSet<>(terms))))
        .append(ROW_HEAD, true);
    Map<String, Document> firstRowByPatient = new HashMap<>();
    BinaryOperator<Document> firstRow = BinaryOperator.minBy(Comparator.comparing(d -> rowOf(d).id()));
    for (Document d : records.find(match).projection(Projections.exclude(TEXT, VECTOR)).batchSize(BATCH_SIZE)) {
      firstRowByPatient.merge(d.getString(PATIENT), d, firstRow);
    }
    return PatientTerms.mostMatching(firstRowByPatient.entrySet().stream()
        .map(e -> new IndexedPatient(e.getKey(), DocumentDbSchema.patientLabel(e.getValue()))).toList(), terms, limit);
  }

  private static RowRef rowOf(Document d) {
    return new RowRef(d.getString(SOURCE_ID), d.getString(TABLE), d.getString(ROW_KEY));
  }

  @Override
  public long countRows(TableRef table) {
    Objects.requireNonNull(table, "table");
    ReadView view = readView();
    Long g = view.active().get(table);
    if (g == null) {
      return 0;
    }
    return records.countDocuments(Filters.and(
        Filters.eq(TABLE_GEN, DocumentDbPipelines.tableGenKey(table.sourceId(), table.table(), g)),
        Filters.eq(ROW_HEAD, true), Filters.lte(EPOCH_ADDED, view.epoch()), Filters.gt(EPOCH_REMOVED, view.epoch())));
  }

  @Override
  public List<StoredChunk> rowChunks(RowRef row) {
    Objects.requireNonNull(row, "row");
    ReadView view = readView();
    Long g = view.active().get(row.tableRef());
    if (g == null) {
      return List.of();
    }
    List<StoredChunk> out = new ArrayList<>();
    Bson which = Filters.and(DocumentDbSchema.rowFilter(row), Filters.eq(GENERATION, g),
        Filters.lte(EPOCH_ADDED, view.epoch()), Filters.gt(EPOCH_REMOVED, view.epoch()));
    for (Document d : records.find(which).sort(Sorts.ascending(CHUNK_INDEX)).batchSize(BATCH_SIZE)) {
      out.add(DocumentDbSchema.toChunk(d));
    }
    return List.copyOf(out);
  }

  @Override
  public long chunkCount() {
    ReadView view = readView();
    if (view.active().isEmpty()) {
      return 0;
    }
    return records.countDocuments(
        DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), RetrievalFilter.NONE));
  }

  /** Whether the committed epoch has an active generation. */
  boolean hasActiveTables() {
    return !readView().active().isEmpty();
  }

  private static void requireK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }
}
