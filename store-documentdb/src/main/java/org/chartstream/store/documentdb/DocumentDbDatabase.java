package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbPipelines.CHUNK_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT;
import static org.chartstream.store.documentdb.DocumentDbPipelines.PATIENT_TERMS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_HEAD;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_KEY;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ROW_REFS;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE_GEN;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TEXT_INDEX_NAME;
import static org.chartstream.store.documentdb.DocumentDbSchema.COMMIT_STATE;
import static org.chartstream.store.documentdb.DocumentDbSchema.INDEXED_TABLES;
import static org.chartstream.store.documentdb.DocumentDbSchema.POINTER_SINCE_EPOCH;
import static org.chartstream.store.documentdb.DocumentDbSchema.RECORDS;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_CHECKPOINT;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_DIMENSION;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_EPOCH;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_ID;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_VECTOR_INDEX_KIND;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_VECTOR_INDEX_LISTS;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_VECTOR_INDEX_ROWS;

import com.mongodb.MongoClientException;
import com.mongodb.MongoCommandException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's connection to one database: the client, its three collections, whether commits can use transactions,
 * the indexes and the commit-state document it creates when missing, and the reads the writer and the searcher
 * share (the commit state, each table's generation at an epoch).
 */
final class DocumentDbDatabase {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbDatabase.class);

  static final int BATCH_SIZE = 500;

  private final DocumentDbSettings settings;
  private final MongoClient client;
  private final MongoCollection<Document> records;
  private final MongoCollection<Document> tables;
  private final MongoCollection<Document> state;
  private final boolean transactions;
  private final String hosts;
  private volatile boolean closed;

  private DocumentDbDatabase(DocumentDbSettings settings, MongoClient client, boolean transactions, String hosts) {
    this.settings = settings;
    this.client = client;
    MongoDatabase db = client.getDatabase(settings.database());
    this.records = db.getCollection(RECORDS);
    this.tables = db.getCollection(INDEXED_TABLES);
    this.state = db.getCollection(COMMIT_STATE);
    this.transactions = transactions;
    this.hosts = hosts;
  }

  /**
   * Connects and finds out whether commits can run in transactions. Closes the client when that fails.
   *
   * @throws IllegalStateException if transactions are required but the server has none
   */
  static DocumentDbDatabase connect(DocumentDbSettings settings) {
    var clientSettings = DocumentDbClientSettings.of(settings);
    String hosts = String.valueOf(clientSettings.getClusterSettings().getHosts());
    MongoClient client = MongoClients.create(clientSettings);
    try {
      return new DocumentDbDatabase(settings, client, transactionsUsable(client, settings, hosts), hosts);
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

  /** An IVF index is rebuilt once the collection holds this many times the documents it was built on. */
  static final int IVF_REBUILD_GROWTH = 2;

  /**
   * Checks the stored vector dimension and index kind against the settings, then creates the records' indexes
   * (filters, text, and the HNSW vector index; an IVF index waits for data, see {@link #buildIvfIndexIfOutgrown})
   * and the commit-state document, where missing. The check comes first: the engine refuses a changed vector index
   * under the same name with its own message, which names neither the dimension nor the remedy.
   *
   * @throws IllegalStateException if the database was built for another dimension or index kind
   */
  void createIndexesAndState() {
    requireStoredVectorIndexMatches();
    records.createIndex(Indexes.ascending(CHUNK_ID), new IndexOptions().name("chunk_id"));
    records.createIndex(Indexes.ascending(SOURCE_ID, TABLE, ROW_KEY, GENERATION, EPOCH_REMOVED),
        new IndexOptions().name("row_versions"));
    records.createIndex(Indexes.ascending(TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("active_chunks"));
    records.createIndex(Indexes.ascending(TABLE_GEN, ROW_HEAD, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("active_rows"));
    records.createIndex(Indexes.ascending(PATIENT, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_patient"));
    records.createIndex(Indexes.ascending(PATIENT_TERMS, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("patients_by_term"));
    records.createIndex(Indexes.ascending(TABLE, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_table"));
    records.createIndex(Indexes.ascending(SOURCE_ID, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_source"));
    records.createIndex(Indexes.ascending(ROW_REFS, TABLE_GEN, EPOCH_ADDED, EPOCH_REMOVED),
        new IndexOptions().name("filter_row"));
    records.createIndex(Indexes.ascending(EPOCH_ADDED), new IndexOptions().name("epoch_added"));
    records.createIndex(Indexes.ascending(EPOCH_REMOVED), new IndexOptions().name("epoch_removed"));
    ensureTextIndex();
    if (settings.vectorIndexKind() == DocumentDbSettings.VectorIndexKind.HNSW) {
      createVectorIndex(0);
    }

    state.updateOne(Filters.eq(ID, STATE_ID),
        Updates.setOnInsert(new Document(STATE_EPOCH, 0L).append(STATE_CHECKPOINT, List.of())
            .append(STATE_DIMENSION, settings.dimension())),
        new UpdateOptions().upsert(true));
    state.updateOne(Filters.and(Filters.eq(ID, STATE_ID), Filters.exists(STATE_VECTOR_INDEX_KIND, false)),
        Updates.set(STATE_VECTOR_INDEX_KIND, settings.vectorIndexKind().kind()));
    buildIvfIndexIfOutgrown();
  }

  /**
   * The stored dimension and kind against the settings: the commit state's markers, or where a store written before
   * them has none, the vector index's own options as {@code listIndexes} reports them.
   */
  private void requireStoredVectorIndexMatches() {
    Document s = state.find(Filters.eq(ID, STATE_ID)).first();
    if (s == null) {
      return;
    }
    Number storedDimension = s.get(STATE_DIMENSION, Number.class);
    String storedKind = s.getString(STATE_VECTOR_INDEX_KIND);
    if (storedDimension == null || storedKind == null) {
      Document options = DocumentDbPipelines.vectorIndexOptions(records.listIndexes());
      if (options != null) {
        storedKind = storedKind != null ? storedKind : options.getString("kind");
        Number indexed = options.get("dimensions", Number.class);
        storedDimension = storedDimension != null ? storedDimension : indexed;
      }
    }
    String requestedKind = settings.vectorIndexKind().kind();
    boolean dimensionDiffers = storedDimension != null && storedDimension.intValue() != settings.dimension();
    boolean kindDiffers = storedKind != null && !storedKind.equals(requestedKind);
    if (dimensionDiffers || kindDiffers) {
      throw new IllegalStateException("database " + settings.database() + " holds "
          + (storedDimension == null ? "" : storedDimension + "-dimensional ") + "vectors in a "
          + (storedKind == null ? "vector" : storedKind) + " index; these settings are for " + settings.dimension()
          + " dimensions in a " + requestedKind + " index. An existing vector index cannot change its dimension"
          + " or kind: reindex into a new database for another embedding model or"
          + " index kind");
    }
  }

  private void createVectorIndex(int ivfLists) {
    client.getDatabase(settings.database())
        .runCommand(DocumentDbPipelines.vectorIndexCommand(RECORDS, settings, ivfLists));
  }

  /**
   * Builds the IVF index once documents are in, and rebuilds it when the collection has grown to
   * {@value #IVF_REBUILD_GROWTH} times the documents it was built on: pgvector picks an IVF index's list centres
   * from the rows present when the index is built and never retrains them, so an index built on an empty or much
   * smaller collection probes lists that do not fit the data. Each build sizes the lists for the collection
   * ({@link IvfSizing#lists}, unless the settings fix them) and records them for the searches' probes. Runs at open
   * and after every commit that wrote anything (a publication, or upserts streamed into an active generation). An
   * index of that name found without a recorded build (an older store created it at open, on no data) is rebuilt
   * too. Vector searches fail between the drop and the end of the rebuild.
   */
  void buildIvfIndexIfOutgrown() {
    if (settings.vectorIndexKind() != DocumentDbSettings.VectorIndexKind.IVF) {
      return;
    }
    long documents = records.estimatedDocumentCount();
    if (documents == 0) {
      return;
    }
    Document s = stateDocument();
    Number builtOn = s.get(STATE_VECTOR_INDEX_ROWS, Number.class);
    if (builtOn != null && documents < IVF_REBUILD_GROWTH * builtOn.longValue()) {
      if (s.get(STATE_VECTOR_INDEX_LISTS) == null) {
        recordListsOfTheBuiltIndex();
      }
      return;
    }
    if (DocumentDbPipelines.vectorIndexOptions(records.listIndexes()) != null) {
      records.dropIndex(DocumentDbPipelines.VECTOR_INDEX_NAME);
    }
    int lists = settings.ivfNumLists() != null ? settings.ivfNumLists() : IvfSizing.lists(documents);
    createVectorIndex(lists);
    state.updateOne(Filters.eq(ID, STATE_ID), Updates.combine(Updates.set(STATE_VECTOR_INDEX_ROWS, documents),
        Updates.set(STATE_VECTOR_INDEX_LISTS, lists)));
    LOG.info("built the {} index of database {} on {} document(s) with {} list(s)",
        settings.vectorIndexKind().kind(), settings.database(), documents, lists);
  }

  /** An index built before the lists were recorded: its {@code numLists} as {@code listIndexes} reports it. */
  private void recordListsOfTheBuiltIndex() {
    Document options = DocumentDbPipelines.vectorIndexOptions(records.listIndexes());
    Number lists = options == null ? null : options.get("numLists", Number.class);
    if (lists != null) {
      state.updateOne(Filters.eq(ID, STATE_ID), Updates.set(STATE_VECTOR_INDEX_LISTS, lists.intValue()));
    }
  }

  /**
   * Creates the weighted text index, first dropping a text index of the same name with other fields or weights (one
   * written before the opening field existed): the engine rejects a second text index on a collection and a changed
   * index under the same name. Until the writer rewrites them, chunks written before have no opening and match on
   * their text alone.
   */
  private void ensureTextIndex() {
    MongoDatabase db = client.getDatabase(settings.database());
    for (Document index : records.listIndexes()) {
      if (TEXT_INDEX_NAME.equals(index.getString("name")) && !DocumentDbPipelines.isCurrentTextIndex(index)) {
        LOG.info("recreating text index {} on {}: it predates the weighted opening field", TEXT_INDEX_NAME, RECORDS);
        db.runCommand(DocumentDbPipelines.dropTextIndexCommand(RECORDS));
      }
    }
    db.runCommand(DocumentDbPipelines.textIndexCommand(RECORDS));
  }

  MongoClient client() {
    return client;
  }

  MongoCollection<Document> records() {
    return records;
  }

  MongoCollection<Document> tables() {
    return tables;
  }

  MongoCollection<Document> state() {
    return state;
  }

  /** Whether commits run in multi-document transactions. */
  boolean transactions() {
    return transactions;
  }

  String hosts() {
    return hosts;
  }

  /** The commit-state document. */
  Document stateDocument() {
    Document s = state.find(Filters.eq(ID, STATE_ID)).first();
    if (s == null) {
      throw new IllegalStateException("database " + settings.database() + " has no " + COMMIT_STATE
          + " document: not a chartstream store");
    }
    return s;
  }

  /** Each table's generation active at {@code epoch}: its newest pointer entry no newer than the epoch. */
  Map<TableRef, Long> activeAt(long epoch) {
    Map<TableRef, Long> active = new LinkedHashMap<>();
    for (Document t : tables.find().batchSize(BATCH_SIZE)) {
      Long generation = null;
      long since = Long.MIN_VALUE;
      for (Document e : DocumentDbSchema.pointerHistory(t)) {
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

  boolean isClosed() {
    return closed;
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("DocumentDB store for database " + settings.database() + " is closed");
    }
  }

  /** Marks the database closed and closes the client. */
  void close() {
    closed = true;
    client.close();
  }
}
