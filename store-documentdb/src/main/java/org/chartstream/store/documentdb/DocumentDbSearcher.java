package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbDatabase.BATCH_SIZE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_INDEX;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SCORE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE_GEN;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_EPOCH;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's read side: every call reads the committed epoch first ({@link #readView()}) and then only sees that
 * commit's chunks. Vector search pushes the whole filter into {@code cosmosSearch} unless the server refuses it;
 * lexical search is {@code $text}, its hits scored by rank ({@link DocumentDbPipelines#lexicalRankScore}). Hits and
 * row lookups carry each chunk's vector.
 */
final class DocumentDbSearcher {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbSearcher.class);

  private final DocumentDbSettings settings;
  private final DocumentDbDatabase database;
  private final MongoCollection<Document> records;

  private volatile ReadView cachedView;
  private volatile boolean vectorFilterPushedDown;

  /** What a reader sees: one committed epoch, its checkpoint and each table's active generation at it. */
  record ReadView(long epoch, Map<String, String> checkpoint, Map<TableRef, Long> active, List<String> activeKeys) {}

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
    ReadView cached = cachedView;
    if (cached != null && cached.epoch() == epoch) {
      return cached;
    }
    Map<TableRef, Long> active = database.activeAt(epoch);
    List<String> keys = new ArrayList<>(active.size());
    active.forEach((t, g) -> keys.add(DocumentDbPipelines.tableGenKey(t.sourceId(), t.table(), g)));
    ReadView view = new ReadView(epoch, DocumentDbSchema.readCheckpoint(s), active, List.copyOf(keys));
    cachedView = view;
    return view;
  }

  Map<String, String> checkpoint() {
    return readView().checkpoint();
  }

  Map<TableRef, Long> activeGenerations() {
    return readView().active();
  }

  List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
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
    if (vectorFilterPushedDown) {
      try {
        return runSearch(pushedDownPipeline(query, k, restriction), "vector search ($search.cosmosSearch)");
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
    return postFilteredSearch(query, k, restriction);
  }

  List<Document> pushedDownPipeline(float[] query, int k, Document restriction) {
    return switch (settings.vectorIndexKind()) {
      case HNSW -> DocumentDbPipelines.vectorSearch(query, k, "efSearch",
          Math.min(Math.max(settings.numCandidates(), k), DocumentDbSettings.MAX_CANDIDATES), restriction);
      case IVF -> DocumentDbPipelines.vectorSearch(query, k, "nProbes", settings.ivfProbes(), restriction);
    };
  }

  /** Over-fetches until k hits pass the filter or the fetch reaches its limit. */
  private List<SearchHit> postFilteredSearch(float[] query, int k, Document restriction) {
    int fetch = Math.min(Math.max(k, k * settings.overFetchFactor()), settings.maxOverFetch());
    while (true) {
      List<Document> pipeline = switch (settings.vectorIndexKind()) {
        case HNSW -> DocumentDbPipelines.vectorSearchPostFiltered(query, k, fetch, "efSearch",
            Math.min(Math.max(settings.numCandidates(), fetch), DocumentDbSettings.MAX_CANDIDATES), restriction);
        case IVF -> DocumentDbPipelines.vectorSearchPostFiltered(query, k, fetch, "nProbes", settings.ivfProbes(),
            restriction);
      };
      List<SearchHit> hits = runSearch(pipeline, "vector search ($search.cosmosSearch)");
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

  List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
    requireK(k);
    String text = DocumentDbPipelines.textSearch(query);
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

  long countRows(TableRef table) {
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

  List<StoredChunk> rowChunks(RowRef row) {
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

  long chunkCount() {
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
