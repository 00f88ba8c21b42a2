package org.chartstream.store.documentdb;

import com.mongodb.MongoException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bson.Document;
import org.chartstream.core.store.DelegatingHybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.StoreReads;
import org.chartstream.core.store.StoreWrites;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
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
 * <p>{@code $text} takes no per-term weights, so {@link #weightedLexicalSearch} is the port's fallback (the texts as
 * one plain query) and {@link #weighsLexicalTerms} is false: lexical feedback is skipped on this store.
 *
 * <p>Searches push the whole filter (active generations, epoch, the caller's {@link RetrievalFilter}) into
 * {@code cosmosSearch.filter}, with {@code exact: true} when the filter is selective (a patient, rows, or tables
 * with few chunks) and a second, exact search when the approximate one returns fewer than k; a server that refuses
 * filtered vector search gets an over-fetch and {@code $match} instead. The IVF index is built once a published
 * generation's data is in, and rebuilt as the collection grows. The lexical side is {@code $text} with the same
 * filter in the same {@code $match}.
 *
 * <p>One writer per database (a second one is detected at commit); any number of readers, in any process.
 *
 * <p>The parts: {@link DocumentDbDatabase} (connection, indexes, commit state), {@link DocumentDbSchema} (chunk
 * documents), {@link DocumentDbWriter} (buffered writes and the commit), {@link DocumentDbSearcher} (vector and text
 * search, row lookups, counts).
 */
public final class DocumentDbHybridStore implements DelegatingHybridStore {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbHybridStore.class);

  private final DocumentDbSettings settings;
  private final DocumentDbDatabase database;
  private final DocumentDbWriter writer;
  private final DocumentDbSearcher searcher;
  private final TermIndex termIndex;
  private final DocumentDbRowSets rowSets;
  private final DocumentDbTermLookup termLookup;

  private DocumentDbHybridStore(DocumentDbSettings settings, DocumentDbDatabase database, DocumentDbWriter writer) {
    this.settings = settings;
    this.database = database;
    this.writer = writer;
    this.searcher = new DocumentDbSearcher(settings, database);
    this.rowSets = new DocumentDbRowSets(database.records());
    this.termLookup = new DocumentDbTermLookup(database.records());
    this.termIndex = new TermIndex() {
      @Override
      public TermRows rowsWithTerm(String term, RetrievalFilter filter, int cap) {
        return termLookup.rowsWithTerm(searcher.readView(), term, filter, cap);
      }

      @Override
      public List<String> similarWords(String word, int maxEdits, int max) {
        if (maxEdits < 1 || maxEdits > 2 || max < 1) {
          throw new IllegalArgumentException("maxEdits must be 1 or 2 and max >= 1: " + maxEdits + ", " + max);
        }
        return List.of();
      }
    };
  }

  /**
   * Connects, creates the collections' indexes if missing, undoes an unfinished commit of a writer that stopped
   * abruptly, and checks that the stored dimension matches the settings.
   *
   * @throws IllegalStateException if transactions are required but the server has none, or the database holds a
   *     vector index of another dimension or kind (checked before any index command)
   */
  public static DocumentDbHybridStore open(DocumentDbSettings settings) {
    Objects.requireNonNull(settings, "settings");
    DocumentDbDatabase database = DocumentDbDatabase.connect(settings);
    try {
      database.createIndexesAndState();
      DocumentDbWriter writer = DocumentDbWriter.open(settings, database);
      LOG.info("opened DocumentDB hybrid store on {} database {}: epoch {}, {} active table(s), transactions {}",
          database.hosts(), settings.database(), writer.committedEpoch(), writer.activeTables(),
          database.transactions() ? "on" : "off (single-document commit switch)");
      return new DocumentDbHybridStore(settings, database, writer);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  /** Whether commits run in multi-document transactions. */
  public boolean transactionsInUse() {
    return database.transactions();
  }

  // ------------------------------------------------------------------------------------------------ writes

  /** Test seam: runs inside the next commits, after every write and before the commit switch. */
  void failBeforeStateSwitch(Runnable failure) {
    writer.failBeforeStateSwitch(failure);
  }

  // ------------------------------------------------------------------------------------------------ reads

  /** The first pushed-down vector search pipeline this store sends for the filter (tests pin its options). */
  List<Document> pushedDownPipeline(float[] query, int k, RetrievalFilter filter) {
    return searcher.pushedDownPipeline(query, k, filter, searcher.readView());
  }

  /**
   * Exact terms by {@code $regex} over the chunks' text; no similar words: DocumentDB exposes no term dictionary to
   * walk, so a misspelled word is answered as asked.
   */
  @Override
  public Optional<TermIndex> termIndex() {
    return Optional.of(termIndex);
  }

  @Override
  public boolean answersRowSets() {
    return true;
  }

  /** {@code $match} on the row heads' field sub-documents, {@code $group} for counts and values ({@link DocumentDbRowSets}). */
  @Override
  public RowSetResult rowSet(RowSetQuery query) {
    return rowSets.rowSet(searcher.readView(), query);
  }

  @Override
  public long rowsWithoutFields(RetrievalFilter filter) {
    return rowSets.rowsWithoutFields(searcher.readView(), filter);
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
    if (database.isClosed()) {
      return false;
    }
    try {
      return searcher.hasActiveTables();
    } catch (MongoException | IllegalStateException e) {
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  @Override
  public void close() {
    if (writer.close()) {
      LOG.info("closed DocumentDB hybrid store on {} database {}", database.hosts(), settings.database());
    }
  }
}
