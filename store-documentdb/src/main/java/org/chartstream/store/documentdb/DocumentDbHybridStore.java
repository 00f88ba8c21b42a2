package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_COUNT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_INDEX;
import static org.chartstream.store.documentdb.DocumentDbPipelines.COMMIT_TS_MS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.LIVE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.MODEL_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_REFS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SCORE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_POSITION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE_GEN;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT_INDEX_NAME;
import static org.chartstream.store.documentdb.DocumentDbPipelines.VECTOR;

import com.mongodb.MongoClientException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.chartstream.core.store.ChunkChecks;
import org.chartstream.core.store.GenerationSwitch;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production hybrid store on a DocumentDB engine (DocumentDB local, Azure DocumentDB / Cosmos DB for MongoDB
 * vCore) over the MongoDB wire protocol.
 *
 * <p>Collections: {@code records} holds one document per chunk version (field {@code chunk_id} carries the
 * design's chunk id {@code source:table:row_pk:chunk_index:generation}; {@code _id} is that id plus the commit
 * epoch that wrote the version). {@code indexed_tables} holds one document per table with its active-generation
 * pointer: the recent {@code (generation, since_epoch)} entries. {@code commit_state} holds one document: the
 * committed epoch, the checkpoint and the vector dimension.
 *
 * <p>Visibility is by commit epoch. Writes buffer in memory until {@link #commit}; a commit with epoch E inserts
 * new chunk versions with {@code epoch_added = E}, marks replaced and deleted ones {@code epoch_removed = E}, adds
 * pointer entries {@code since_epoch = E}, and then switches {@code commit_state.epoch} to E in one
 * single-document update. A reader reads the committed epoch C first and then sees exactly the chunks with
 * {@code epoch_added <= C < epoch_removed} of each table's generation active at C. So even without transactions a
 * reader sees all of a commit or none of it: a row never twice or not at all, a table's old generation or its new
 * one, never a mix. Where the server has multi-document transactions the whole commit runs in one as well; without
 * them a commit that failed half-way is undone before the next one (and at open after a crash), and leftover
 * writes of an unfinished commit are never visible meanwhile. Superseded chunk versions are deleted
 * {@link DocumentDbSettings#retiredChunkGrace()} after the commit that superseded them, so searches that started
 * before it still find their rows.
 *
 * <p>Searches push the whole filter (active generations, epoch, the caller's {@link RetrievalFilter}) into
 * {@code cosmosSearch.filter}; a server that refuses filtered vector search gets an over-fetch and {@code $match}
 * instead. The lexical side is {@code $text} with the same filter in the same {@code $match}.
 *
 * <p>One writer per database (a second one is detected at commit); any number of readers, in any process.
 */
public final class DocumentDbHybridStore implements HybridStore {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbHybridStore.class);

  static final String RECORDS = "records";
  static final String INDEXED_TABLES = "indexed_tables";
  static final String COMMIT_STATE = "commit_state";
  static final String STATE_ID = "commit";
  static final String STATE_EPOCH = "epoch";
  static final String STATE_CHECKPOINT = "checkpoint";
  static final String STATE_DIMENSION = "dimension";
  static final String POINTER_GENERATIONS = "generations";
  static final String POINTER_SINCE_EPOCH = "since_epoch";
  /** Pointer entries kept per table: a reader that read an older epoch still finds the generation it saw. */
  static final int POINTER_HISTORY = 8;
  static final int BATCH_SIZE = 500;

  private final DocumentDbSettings settings;
  private final MongoClient client;
  private final MongoCollection<Document> records;
  private final MongoCollection<Document> tables;
  private final MongoCollection<Document> state;
  private final boolean transactions;
  private final String hosts;

  /** The writer's side; guarded by {@code this}. */
  private final List<PendingWrite> pending = new ArrayList<>();
  private final Map<TableRef, Long> writerActive;
  private final Deque<long[]> supersedingCommits = new ArrayDeque<>();
  private long committedEpoch;
  private Map<String, String> committedCheckpoint;
  private Runnable failureBeforeStateSwitch = () -> { };

  private volatile ReadView cachedView;
  private volatile boolean vectorFilterPushedDown;
  private volatile boolean closed;

  private sealed interface PendingWrite permits Upsert, Delete, Publish {}

  private record Upsert(RowRef row, long generation, List<StoredChunk> chunks) implements PendingWrite {}

  private record Delete(RowRef row) implements PendingWrite {}

  private record Publish(TableRef table, long generation) implements PendingWrite {}

  /** What a reader sees: one committed epoch, its checkpoint and each table's active generation at it. */
  record ReadView(long epoch, Map<String, String> checkpoint, Map<TableRef, Long> active, List<String> activeKeys) {}

  private DocumentDbHybridStore(DocumentDbSettings settings, MongoClient client, boolean transactions,
      String hosts) {
    this.settings = settings;
    this.client = client;
    MongoDatabase db = client.getDatabase(settings.database());
    this.records = db.getCollection(RECORDS);
    this.tables = db.getCollection(INDEXED_TABLES);
    this.state = db.getCollection(COMMIT_STATE);
    this.transactions = transactions;
    this.hosts = hosts;
    this.vectorFilterPushedDown = settings.vectorFilterMode() != DocumentDbSettings.VectorFilterMode.POST_FILTER;
    this.writerActive = new HashMap<>();
  }

  /**
   * Connects, creates the collections' indexes if missing, undoes an unfinished commit of a writer that stopped
   * abruptly, and checks that the stored dimension matches the settings.
   *
   * @throws IllegalStateException if transactions are required but the server has none, or the database holds an
   *     index of another vector dimension
   */
  public static DocumentDbHybridStore open(DocumentDbSettings settings) {
    Objects.requireNonNull(settings, "settings");
    var clientSettings = DocumentDbClientSettings.of(settings);
    String hosts = String.valueOf(clientSettings.getClusterSettings().getHosts());
    MongoClient client = MongoClients.create(clientSettings);
    try {
      boolean transactions = transactionsUsable(client, settings, hosts);
      DocumentDbHybridStore store = new DocumentDbHybridStore(settings, client, transactions, hosts);
      store.initialise();
      LOG.info("opened DocumentDB hybrid store on {} database {}: epoch {}, {} active table(s), transactions {}",
          hosts, settings.database(), store.committedEpoch, store.writerActive.size(),
          transactions ? "on" : "off (single-document commit switch)");
      return store;
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static boolean transactionsUsable(MongoClient client, DocumentDbSettings settings, String hosts) {
    if (settings.transactions() == DocumentDbSettings.TransactionMode.DISABLED) {
      return false;
    }
    String unsupported;
    try (ClientSession session = client.startSession()) {
      session.startTransaction();
      client.getDatabase(settings.database()).getCollection(COMMIT_STATE).find(session).first();
      session.commitTransaction();
      return true;
    } catch (MongoClientException | MongoCommandException e) {
      unsupported = e.getMessage();
    }
    if (settings.transactions() == DocumentDbSettings.TransactionMode.REQUIRED) {
      throw new IllegalStateException("transactions are required but the server at " + hosts
          + " does not support them: " + unsupported);
    }
    LOG.info("the server at {} has no multi-document transactions ({}); commits use the single-document switch",
        hosts, unsupported);
    return false;
  }

  private void initialise() {
    records.createIndex(Indexes.ascending(CHUNK_ID), new IndexOptions().name("chunk_id"));
    records.createIndex(Indexes.ascending(SOURCE_ID, TABLE, ROW_KEY, GENERATION, EPOCH_REMOVED),
        new IndexOptions().name("row_versions"));
    records.createIndex(Indexes.ascending(TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("active_chunks"));
    records.createIndex(Indexes.ascending(TABLE_GEN, ROW_HEAD, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("active_rows"));
    records.createIndex(Indexes.ascending(PATIENT, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_patient"));
    records.createIndex(Indexes.ascending(TABLE, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_table"));
    records.createIndex(Indexes.ascending(SOURCE_ID, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_source"));
    records.createIndex(Indexes.ascending(ROW_REFS, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_row"));
    records.createIndex(Indexes.ascending(EPOCH_ADDED), new IndexOptions().name("epoch_added"));
    records.createIndex(Indexes.ascending(EPOCH_REMOVED), new IndexOptions().name("epoch_removed"));
    records.createIndex(Indexes.text(TEXT), new IndexOptions().name(TEXT_INDEX_NAME).defaultLanguage("english"));
    client.getDatabase(settings.database()).runCommand(DocumentDbPipelines.vectorIndexCommand(RECORDS, settings));

    state.updateOne(Filters.eq(ID, STATE_ID),
        Updates.setOnInsert(new Document(STATE_EPOCH, 0L).append(STATE_CHECKPOINT, List.of())
            .append(STATE_DIMENSION, settings.dimension())),
        new com.mongodb.client.model.UpdateOptions().upsert(true));
    Document s = stateDocument();
    Number storedDimension = s.get(STATE_DIMENSION, Number.class);
    if (storedDimension != null && storedDimension.intValue() != settings.dimension()) {
      throw new IllegalStateException("database " + settings.database() + " holds " + storedDimension
          + "-dimensional vectors; these settings are for " + settings.dimension()
          + " dimensions (an embedding model with another dimension needs another database)");
    }
    committedEpoch = s.get(STATE_EPOCH, Number.class).longValue();
    committedCheckpoint = readCheckpoint(s);
    undoUnfinishedCommit();
    writerActive.putAll(activeAt(committedEpoch));
    supersedingCommits.add(new long[] {committedEpoch, System.currentTimeMillis()});
  }

  /** Everything written by a commit later than the committed epoch: an unfinished (failed or halted) commit. */
  private void undoUnfinishedCommit() {
    long c = committedEpoch;
    long removed = records.deleteMany(Filters.gt(EPOCH_ADDED, c)).getDeletedCount();
    long restored = records.updateMany(Filters.and(Filters.gt(EPOCH_REMOVED, c), Filters.lt(EPOCH_REMOVED, LIVE)),
        Updates.set(EPOCH_REMOVED, LIVE)).getModifiedCount();
    int pointers = 0;
    for (Document t : tables.find().batchSize(BATCH_SIZE)) {
      List<Document> history = pointerHistory(t);
      List<Document> kept = history.stream()
          .filter(e -> e.get(POINTER_SINCE_EPOCH, Number.class).longValue() <= c).toList();
      if (kept.size() != history.size()) {
        tables.updateOne(Filters.eq(ID, t.get(ID)), Updates.set(POINTER_GENERATIONS, kept));
        pointers++;
      }
    }
    if (removed + restored + pointers > 0) {
      LOG.warn("undid an unfinished commit after epoch {}: {} chunk version(s) removed, {} restored, {} table"
          + " pointer(s) reset", c, removed, restored, pointers);
    }
  }

  /** Whether commits run in multi-document transactions. */
  public boolean transactionsInUse() {
    return transactions;
  }

  // ------------------------------------------------------------------------------------------------ writes

  @Override
  public synchronized void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(chunks, "chunks");
    ensureOpen();
    validateChunks(row, generation, chunks);
    Long active = writerActive.get(row.tableRef());
    if (active != null && generation < active) {
      LOG.debug("ignoring a write into superseded generation {} of {} (active {})", generation, row.tableRef(),
          active);
      return;
    }
    pending.removeIf(w -> w instanceof Upsert u && u.row().equals(row) && u.generation() == generation);
    pending.add(new Upsert(row, generation, List.copyOf(chunks)));
  }

  @Override
  public synchronized void deleteRow(RowRef row) {
    Objects.requireNonNull(row, "row");
    ensureOpen();
    pending.removeIf(w -> w instanceof Upsert u && u.row().equals(row));
    pending.add(new Delete(row));
  }

  @Override
  public synchronized void publish(TableRef table, long generation) {
    Objects.requireNonNull(table, "table");
    ensureOpen();
    Long active = writerActive.get(table);
    if (!GenerationSwitch.changesActive(table, active, generation)) {
      return;
    }
    writerActive.put(table, generation);
    pending.add(new Publish(table, generation));
    LOG.info("publishing generation {} of {} (was {}) at the next commit", generation, table,
        active == null ? "none" : active);
  }

  @Override
  public synchronized void commit(Map<String, String> checkpoint) {
    ensureOpen();
    Map<String, String> cp = checkpoint == null ? committedCheckpoint : copyCheckpoint(checkpoint);
    long previous = committedEpoch;
    long epoch = previous + 1;
    List<PendingWrite> writes = List.copyOf(pending);
    if (transactions) {
      try (ClientSession session = client.startSession()) {
        session.withTransaction(() -> {
          applyCommit(session, writes, previous, epoch, cp);
          return null;
        });
      }
    } else {
      try {
        applyCommit(null, writes, previous, epoch, cp);
      } catch (ConcurrentWriterException e) {
        // the epoch's writes may be the other writer's: nothing of ours is undone
        throw e;
      } catch (RuntimeException e) {
        try {
          undoUnfinishedCommit();
        } catch (RuntimeException undo) {
          e.addSuppressed(undo);
        }
        throw e;
      }
    }
    committedEpoch = epoch;
    committedCheckpoint = cp;
    pending.clear();
    long now = System.currentTimeMillis();
    supersedingCommits.add(new long[] {epoch, now});
    deleteRetiredChunks(now);
  }

  private void applyCommit(ClientSession session, List<PendingWrite> writes, long previous, long epoch,
      Map<String, String> cp) {
    Document before = session == null ? state.find(Filters.eq(ID, STATE_ID)).first()
        : state.find(session, Filters.eq(ID, STATE_ID)).first();
    if (before == null || before.get(STATE_EPOCH, Number.class).longValue() != previous) {
      throw new ConcurrentWriterException(settings.database(), previous);
    }
    Map<TableRef, Long> published = new LinkedHashMap<>();
    for (PendingWrite w : writes) {
      if (w instanceof Upsert u) {
        retire(session, Filters.and(rowFilter(u.row()), Filters.eq(GENERATION, u.generation())), epoch);
        if (!u.chunks().isEmpty()) {
          List<Document> docs = new ArrayList<>(u.chunks().size());
          for (int i = 0; i < u.chunks().size(); i++) {
            docs.add(toDocument(u.chunks().get(i), i == 0, epoch));
          }
          if (session == null) {
            records.insertMany(docs);
          } else {
            records.insertMany(session, docs);
          }
        }
      } else if (w instanceof Delete d) {
        retire(session, rowFilter(d.row()), epoch);
      } else if (w instanceof Publish p) {
        retire(session, Filters.and(Filters.eq(SOURCE_ID, p.table().sourceId()),
            Filters.eq(TABLE, p.table().table()), Filters.lt(GENERATION, p.generation())), epoch);
        published.put(p.table(), p.generation());
      }
    }
    published.forEach((table, generation) -> pointTo(session, table, generation, epoch));
    failureBeforeStateSwitch.run();
    Bson current = Filters.and(Filters.eq(ID, STATE_ID), Filters.eq(STATE_EPOCH, previous));
    Bson next = Updates.combine(Updates.set(STATE_EPOCH, epoch), Updates.set(STATE_CHECKPOINT, checkpointList(cp)),
        Updates.set(STATE_DIMENSION, settings.dimension()));
    long matched = session == null ? state.updateOne(current, next).getMatchedCount()
        : state.updateOne(session, current, next).getMatchedCount();
    if (matched != 1) {
      throw new ConcurrentWriterException(settings.database(), previous);
    }
  }

  /** The committed epoch moved under this writer: another store commits to the same database. */
  static final class ConcurrentWriterException extends IllegalStateException {
    ConcurrentWriterException(String database, long expectedEpoch) {
      super("the committed epoch of database " + database + " is no longer " + expectedEpoch
          + ": another writer commits to it (one writer per database)");
    }
  }

  private void retire(ClientSession session, Bson which, long epoch) {
    Bson live = Filters.and(which, Filters.eq(EPOCH_REMOVED, LIVE));
    Bson update = Updates.set(EPOCH_REMOVED, epoch);
    if (session == null) {
      records.updateMany(live, update);
    } else {
      records.updateMany(session, live, update);
    }
  }

  private void pointTo(ClientSession session, TableRef table, long generation, long epoch) {
    Document id = tableId(table);
    Document existing = session == null ? tables.find(Filters.eq(ID, id)).first()
        : tables.find(session, Filters.eq(ID, id)).first();
    List<Document> history = new ArrayList<>(existing == null ? List.of() : pointerHistory(existing));
    history.add(new Document(GENERATION, generation).append(POINTER_SINCE_EPOCH, epoch));
    if (history.size() > POINTER_HISTORY) {
      history = history.subList(history.size() - POINTER_HISTORY, history.size());
    }
    Document pointer = new Document(ID, id).append(SOURCE_ID, table.sourceId()).append(TABLE, table.table())
        .append(POINTER_GENERATIONS, history);
    ReplaceOptions upsert = new ReplaceOptions().upsert(true);
    if (session == null) {
      tables.replaceOne(Filters.eq(ID, id), pointer, upsert);
    } else {
      tables.replaceOne(session, Filters.eq(ID, id), pointer, upsert);
    }
  }

  /** Deletes chunk versions superseded by commits older than the grace period. */
  private void deleteRetiredChunks(long now) {
    long graceMs = settings.retiredChunkGrace().toMillis();
    long upTo = -1;
    while (!supersedingCommits.isEmpty() && now - supersedingCommits.peekFirst()[1] >= graceMs) {
      upTo = supersedingCommits.pollFirst()[0];
    }
    if (upTo >= 0) {
      try {
        records.deleteMany(Filters.lte(EPOCH_REMOVED, upTo));
      } catch (MongoException e) {
        // the next commit retries: retired versions are invisible meanwhile
        LOG.warn("deleting chunk versions retired up to epoch {} failed: {}", upTo, e.getMessage());
        supersedingCommits.addFirst(new long[] {upTo, 0L});
      }
    }
  }

  private static Bson rowFilter(RowRef row) {
    return Filters.and(Filters.eq(SOURCE_ID, row.sourceId()), Filters.eq(TABLE, row.table()),
        Filters.eq(ROW_KEY, row.rowKey()));
  }

  private static Document tableId(TableRef table) {
    return new Document(SOURCE_ID, table.sourceId()).append(TABLE, table.table());
  }

  private Document toDocument(StoredChunk c, boolean rowHead, long epoch) {
    RowRef row = c.row();
    List<Double> vector = new ArrayList<>(c.vector().length);
    for (float f : c.vector()) {
      vector.add((double) f);
    }
    Document d = new Document(ID, c.chunkId() + "@" + epoch)
        .append(CHUNK_ID, c.chunkId())
        .append(SOURCE_ID, row.sourceId())
        .append(TABLE, row.table())
        .append(ROW_KEY, row.rowKey())
        .append(ROW_REFS, List.of(row.rowKey(), row.id()))
        .append(GENERATION, c.generation())
        .append(TABLE_GEN, DocumentDbPipelines.tableGenKey(row.sourceId(), row.table(), c.generation()))
        .append(CHUNK_INDEX, c.chunkIndex())
        .append(CHUNK_COUNT, c.chunkCount())
        .append(TEXT, c.text())
        .append(VECTOR, vector)
        .append(COMMIT_TS_MS, c.commitTsMs())
        .append(ROW_HEAD, rowHead)
        .append(EPOCH_ADDED, epoch)
        .append(EPOCH_REMOVED, LIVE);
    if (c.patientKey() != null) {
      d.append(PATIENT, c.patientKey());
    }
    if (c.sourcePosition() != null) {
      d.append(SOURCE_POSITION, c.sourcePosition());
    }
    if (c.modelId() != null) {
      d.append(MODEL_ID, c.modelId());
    }
    return d;
  }

  private void validateChunks(RowRef row, long generation, List<StoredChunk> chunks) {
    int dim = ChunkChecks.rowUpsert(row, generation, chunks);
    if (dim != 0 && dim != settings.dimension()) {
      throw new IllegalArgumentException("vector dimension " + dim + " of row " + row.table()
          + " does not match the store's vector dimension " + settings.dimension()
          + "; an embedding model with another dimension needs another database");
    }
  }

  private static Map<String, String> copyCheckpoint(Map<String, String> checkpoint) {
    Map<String, String> copy = new TreeMap<>();
    checkpoint.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "checkpoint key"),
        Objects.requireNonNull(v, "checkpoint value")));
    return Collections.unmodifiableMap(copy);
  }

  /** Checkpoint keys can hold dots and dollars, which field names must not: stored as key/value pairs. */
  private static List<Document> checkpointList(Map<String, String> cp) {
    List<Document> out = new ArrayList<>(cp.size());
    cp.forEach((k, v) -> out.add(new Document("key", k).append("value", v)));
    return out;
  }

  private static Map<String, String> readCheckpoint(Document s) {
    Map<String, String> cp = new TreeMap<>();
    List<Document> entries = s.getList(STATE_CHECKPOINT, Document.class, List.of());
    for (Document e : entries) {
      cp.put(e.getString("key"), e.getString("value"));
    }
    return Collections.unmodifiableMap(cp);
  }

  /** Test seam: runs inside the next commits, after every write and before the commit switch. */
  synchronized void failBeforeStateSwitch(Runnable failure) {
    this.failureBeforeStateSwitch = Objects.requireNonNull(failure, "failure");
  }

  // ------------------------------------------------------------------------------------------------ reads

  private Document stateDocument() {
    Document s = state.find(Filters.eq(ID, STATE_ID)).first();
    if (s == null) {
      throw new IllegalStateException("database " + settings.database() + " has no " + COMMIT_STATE
          + " document: not a chartstream store");
    }
    return s;
  }

  private static List<Document> pointerHistory(Document pointer) {
    return pointer.getList(POINTER_GENERATIONS, Document.class, List.of());
  }

  /** Each table's generation active at {@code epoch}: its newest pointer entry no newer than the epoch. */
  private Map<TableRef, Long> activeAt(long epoch) {
    Map<TableRef, Long> active = new LinkedHashMap<>();
    for (Document t : tables.find().batchSize(BATCH_SIZE)) {
      Long generation = null;
      long since = Long.MIN_VALUE;
      for (Document e : pointerHistory(t)) {
        long s = e.get(POINTER_SINCE_EPOCH, Number.class).longValue();
        if (s <= epoch && s >= since) {
          since = s;
          generation = e.get(GENERATION, Number.class).longValue();
        }
      }
      if (generation != null) {
        active.put(new TableRef(t.getString(SOURCE_ID), t.getString(TABLE)), generation);
      }
    }
    return Collections.unmodifiableMap(active);
  }

  /** The committed state as of now: one read of the commit state, and of the pointers when the epoch moved. */
  ReadView readView() {
    ensureOpen();
    Document s = stateDocument();
    long epoch = s.get(STATE_EPOCH, Number.class).longValue();
    ReadView cached = cachedView;
    if (cached != null && cached.epoch() == epoch) {
      return cached;
    }
    Map<TableRef, Long> active = activeAt(epoch);
    List<String> keys = new ArrayList<>(active.size());
    active.forEach((t, g) -> keys.add(DocumentDbPipelines.tableGenKey(t.sourceId(), t.table(), g)));
    ReadView view = new ReadView(epoch, readCheckpoint(s), active, List.copyOf(keys));
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
    if (vectorFilterPushedDown) {
      try {
        return runSearch(pushedDownPipeline(query, k, restriction), "vector search ($search.cosmosSearch)");
      } catch (MongoException e) {
        if (settings.vectorFilterMode() != DocumentDbSettings.VectorFilterMode.AUTO || !isFilterRefusal(e)) {
          throw e;
        }
        vectorFilterPushedDown = false;
        LOG.warn("the server at {} refuses a filter inside cosmosSearch ({}); vector searches over-fetch and"
            + " filter afterwards from now on, which can return fewer than k hits for selective filters", hosts,
            e.getMessage());
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
    String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
    return m.contains("filter is not supported") || (m.contains("filter") && m.contains("not supported"));
  }

  @Override
  public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
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
    return runSearch(DocumentDbPipelines.lexicalSearch(text, k, restriction), "text search ($text)");
  }

  private List<SearchHit> runSearch(List<Document> pipeline, String what) {
    List<SearchHit> hits = new ArrayList<>();
    try {
      for (Document d : records.aggregate(pipeline).batchSize(BATCH_SIZE)) {
        hits.add(new SearchHit(toChunk(d, false), d.get(SCORE, Number.class).doubleValue(), hits.size() + 1));
      }
    } catch (MongoCommandException e) {
      if (isUnsupportedSearch(e)) {
        throw new UnsupportedOperationException("the server at " + hosts + " does not support " + what
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

  private Document activeRestriction(ReadView view) {
    return DocumentDbPipelines.searchFilter(view.epoch(), view.activeKeys(), RetrievalFilter.NONE);
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
    Bson which = Filters.and(rowFilter(row), Filters.eq(GENERATION, g), Filters.lte(EPOCH_ADDED, view.epoch()),
        Filters.gt(EPOCH_REMOVED, view.epoch()));
    for (Document d : records.find(which).sort(Sorts.ascending(CHUNK_INDEX)).batchSize(BATCH_SIZE)) {
      out.add(toChunk(d, true));
    }
    return List.copyOf(out);
  }

  @Override
  public long chunkCount() {
    ReadView view = readView();
    if (view.active().isEmpty()) {
      return 0;
    }
    return records.countDocuments(activeRestriction(view));
  }

  @Override
  public boolean ready() {
    if (closed) {
      return false;
    }
    try {
      return !readView().active().isEmpty();
    } catch (MongoException | IllegalStateException e) {
      return false;
    }
  }

  private static StoredChunk toChunk(Document d, boolean withVector) {
    RowRef row = new RowRef(d.getString(SOURCE_ID), d.getString(TABLE), d.getString(ROW_KEY));
    float[] vector = null;
    if (withVector) {
      List<Number> values = d.getList(VECTOR, Number.class);
      vector = new float[values.size()];
      for (int i = 0; i < vector.length; i++) {
        vector[i] = values.get(i).floatValue();
      }
    }
    return new StoredChunk(d.getString(CHUNK_ID), row, d.get(CHUNK_INDEX, Number.class).intValue(),
        d.get(CHUNK_COUNT, Number.class).intValue(), d.get(GENERATION, Number.class).longValue(),
        d.getString(TEXT), vector, d.getString(PATIENT), d.getString(SOURCE_POSITION),
        d.get(COMMIT_TS_MS, Number.class).longValue(), d.getString(MODEL_ID));
  }

  private static void requireK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("DocumentDB store for database " + settings.database() + " is closed");
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    pending.clear();
    client.close();
    LOG.info("closed DocumentDB hybrid store on {} database {}", hosts, settings.database());
  }
}
