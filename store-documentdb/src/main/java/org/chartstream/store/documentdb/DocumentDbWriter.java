package org.chartstream.store.documentdb;

import static org.chartstream.store.documentdb.DocumentDbDatabase.BATCH_SIZE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_ADDED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.EPOCH_REMOVED;
import static org.chartstream.store.documentdb.DocumentDbPipelines.GENERATION;
import static org.chartstream.store.documentdb.DocumentDbPipelines.ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.LIVE;
import static org.chartstream.store.documentdb.DocumentDbPipelines.SOURCE_ID;
import static org.chartstream.store.documentdb.DocumentDbPipelines.TABLE;
import static org.chartstream.store.documentdb.DocumentDbSchema.POINTER_GENERATIONS;
import static org.chartstream.store.documentdb.DocumentDbSchema.POINTER_SINCE_EPOCH;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_CHECKPOINT;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_DIMENSION;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_EPOCH;
import static org.chartstream.store.documentdb.DocumentDbSchema.STATE_ID;

import com.mongodb.MongoException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
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
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoreWrites;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's write side: buffers row upserts, deletes and publications in memory, and applies them at
 * {@link #commit} under the next commit epoch, ending with the single-document switch of the commit state (inside a
 * transaction where the server has them). Undoes an unfinished commit, and deletes chunk versions superseded longer
 * than the grace period ago. All methods are synchronized: one writer per store.
 */
final class DocumentDbWriter implements StoreWrites {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbWriter.class);

  /** Pointer entries kept per table: a reader that read an older epoch still finds the generation it saw. */
  static final int POINTER_HISTORY = 8;

  private final DocumentDbSettings settings;
  private final DocumentDbDatabase database;
  private final MongoCollection<Document> records;
  private final MongoCollection<Document> tables;
  private final MongoCollection<Document> state;

  private final List<PendingWrite> pending = new ArrayList<>();
  private final Map<TableRef, Long> writerActive = new HashMap<>();
  private final Deque<long[]> supersedingCommits = new ArrayDeque<>();
  private long committedEpoch;
  private Map<String, String> committedCheckpoint;
  private Runnable failureBeforeStateSwitch = () -> { };

  private sealed interface PendingWrite permits Upsert, Delete, Publish {}

  private record Upsert(RowRef row, long generation, List<StoredChunk> chunks) implements PendingWrite {}

  private record Delete(RowRef row) implements PendingWrite {}

  private record Publish(TableRef table, long generation) implements PendingWrite {}

  private DocumentDbWriter(DocumentDbSettings settings, DocumentDbDatabase database) {
    this.settings = settings;
    this.database = database;
    this.records = database.records();
    this.tables = database.tables();
    this.state = database.state();
  }

  /**
   * The writer at the database's committed epoch, after undoing what an unfinished commit left.
   */
  static DocumentDbWriter open(DocumentDbSettings settings, DocumentDbDatabase database) {
    DocumentDbWriter writer = new DocumentDbWriter(settings, database);
    writer.resumeAtCommittedEpoch();
    return writer;
  }

  private synchronized void resumeAtCommittedEpoch() {
    Document s = database.stateDocument();
    committedEpoch = s.get(STATE_EPOCH, Number.class).longValue();
    committedCheckpoint = DocumentDbSchema.readCheckpoint(s);
    undoUnfinishedCommit();
    writerActive.putAll(database.activeAt(committedEpoch));
    supersedingCommits.add(new long[] {committedEpoch, System.currentTimeMillis()});
  }

  synchronized long committedEpoch() {
    return committedEpoch;
  }

  /** Tables with an active generation, published ones included. */
  synchronized int activeTables() {
    return writerActive.size();
  }

  /** Everything written by a commit later than the committed epoch: an unfinished (failed or halted) commit. */
  private void undoUnfinishedCommit() {
    long c = committedEpoch;
    long removed = records.deleteMany(Filters.gt(EPOCH_ADDED, c)).getDeletedCount();
    long restored = records.updateMany(Filters.and(Filters.gt(EPOCH_REMOVED, c), Filters.lt(EPOCH_REMOVED, LIVE)),
        Updates.set(EPOCH_REMOVED, LIVE)).getModifiedCount();
    int pointers = 0;
    for (Document t : tables.find().batchSize(BATCH_SIZE)) {
      List<Document> history = DocumentDbSchema.pointerHistory(t);
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

  @Override
  public synchronized void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(chunks, "chunks");
    database.ensureOpen();
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
    database.ensureOpen();
    pending.removeIf(w -> w instanceof Upsert u && u.row().equals(row));
    pending.add(new Delete(row));
  }

  @Override
  public synchronized void publish(TableRef table, long generation) {
    Objects.requireNonNull(table, "table");
    database.ensureOpen();
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
    database.ensureOpen();
    Map<String, String> cp = checkpoint == null ? committedCheckpoint : copyCheckpoint(checkpoint);
    long previous = committedEpoch;
    long epoch = previous + 1;
    List<PendingWrite> writes = List.copyOf(pending);
    if (database.transactions()) {
      try (ClientSession session = database.client().startSession()) {
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
    if (!writes.isEmpty()) {
      database.buildIvfIndexIfOutgrown();
    }
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
        retire(session, Filters.and(DocumentDbSchema.rowFilter(u.row()), Filters.eq(GENERATION, u.generation())),
            epoch);
        if (!u.chunks().isEmpty()) {
          List<Document> docs = new ArrayList<>(u.chunks().size());
          for (int i = 0; i < u.chunks().size(); i++) {
            docs.add(DocumentDbSchema.toDocument(u.chunks().get(i), i == 0, epoch));
          }
          if (session == null) {
            records.insertMany(docs);
          } else {
            records.insertMany(session, docs);
          }
        }
      } else if (w instanceof Delete d) {
        retire(session, DocumentDbSchema.rowFilter(d.row()), epoch);
      } else if (w instanceof Publish p) {
        retire(session, Filters.and(Filters.eq(SOURCE_ID, p.table().sourceId()),
            Filters.eq(TABLE, p.table().table()), Filters.lt(GENERATION, p.generation())), epoch);
        published.put(p.table(), p.generation());
      }
    }
    published.forEach((table, generation) -> pointTo(session, table, generation, epoch));
    failureBeforeStateSwitch.run();
    Bson current = Filters.and(Filters.eq(ID, STATE_ID), Filters.eq(STATE_EPOCH, previous));
    Bson next = Updates.combine(Updates.set(STATE_EPOCH, epoch),
        Updates.set(STATE_CHECKPOINT, DocumentDbSchema.checkpointList(cp)),
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
    Document id = DocumentDbSchema.tableId(table);
    Document existing = session == null ? tables.find(Filters.eq(ID, id)).first()
        : tables.find(session, Filters.eq(ID, id)).first();
    List<Document> history = new ArrayList<>(existing == null ? List.of() : DocumentDbSchema.pointerHistory(existing));
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

  /** Test seam: runs inside the next commits, after every write and before the commit switch. */
  synchronized void failBeforeStateSwitch(Runnable failure) {
    this.failureBeforeStateSwitch = Objects.requireNonNull(failure, "failure");
  }

  /** Closes the database once, dropping the buffered writes; {@code false} if it was closed already. */
  synchronized boolean close() {
    if (database.isClosed()) {
      return false;
    }
    database.close();
    pending.clear();
    return true;
  }
}
