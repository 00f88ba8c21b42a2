package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.TestVectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The DocumentDB adapter's write path, commit switch, checkpoint, generations, counts and readiness, run against a
 * <b>test double</b>: {@code mongo-java-server}, an in-process server that speaks the MongoDB wire protocol. No
 * DocumentDB engine can run on this build machine (no Docker engine); the double has no transactions, no
 * {@code $text} and no {@code $search}, so these tests exercise the single-document commit switch and check that
 * the search calls fail with a clear message. The search pipelines themselves are pinned in
 * {@link DocumentDbPipelinesTest}; the full contract runs against DocumentDB local in
 * {@link DocumentDbHybridStoreContainerTest} where Docker exists.
 */
class DocumentDbHybridStoreOnMongoJavaServerTest {

  private static final TableRef NOTES = new TableRef("clinic", "notes");
  private static final TableRef LABS = new TableRef("clinic", "labs");
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private MongoServer server;
  private String connectionString;
  private String database;
  private DocumentDbHybridStore store;

  @BeforeEach
  void startDouble() {
    server = new MongoServer(new MemoryBackend());
    InetSocketAddress address = server.bind();
    connectionString = "mongodb://" + address.getHostString() + ":" + address.getPort();
    database = "chartstream_test_" + DATABASES.incrementAndGet();
    store = DocumentDbHybridStore.open(settings());
  }

  @AfterEach
  void stopDouble() {
    if (store != null) {
      store.close();
    }
    server.shutdownNow();
  }

  private DocumentDbSettings settings() {
    return DocumentDbSettings.defaults(connectionString, database, TestVectors.DIM)
        .withRetiredChunkGrace(Duration.ZERO);
  }

  private DocumentDbHybridStore reopen() {
    store.close();
    store = DocumentDbHybridStore.open(settings());
    return store;
  }

  private MongoCollection<Document> raw(String collection) {
    return rawClient().getDatabase(database).getCollection(collection);
  }

  private MongoClient rawClient;

  private MongoClient rawClient() {
    if (rawClient == null) {
      rawClient = MongoClients.create(connectionString);
    }
    return rawClient;
  }

  @AfterEach
  void closeRawClient() {
    if (rawClient != null) {
      rawClient.close();
    }
  }

  private static StoredChunk chunk(RowRef row, long gen, int index, int count, String text, String patient) {
    return ChunkFixture.of(row).generation(gen).index(index, count).text(text)
        .vector(TestVectors.member(index % 5, Objects.hash(row.id(), gen, index))).patient(patient).build();
  }

  private static List<StoredChunk> chunks(RowRef row, long gen, String patient, String... texts) {
    List<StoredChunk> out = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      out.add(chunk(row, gen, i, texts.length, texts[i], patient));
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------------ writes

  @Test
  void upsertAndCommitStoreEveryFieldWithTheEngineTypes() {
    RowRef r = new RowRef(NOTES, "42");
    List<StoredChunk> written = chunks(r, 1, "p7", "persistent migraine with aura", "prescribed sumatriptan");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, written);
    store.commit(Map.of("chunks-0", "31"));

    assertThat(store.ready()).isTrue();
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(store.rowChunks(r)).containsExactlyElementsOf(written);
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(store.chunkCount()).isEqualTo(2);
    assertThat(store.checkpoint()).containsExactly(Map.entry("chunks-0", "31"));

    Document stored = raw(DocumentDbSchema.RECORDS).find(new Document("chunk_id", written.get(1).chunkId()))
        .first();
    assertThat(stored).isNotNull();
    assertThat(stored.get("_id")).isEqualTo(written.get(1).chunkId() + "@1");
    assertThat(stored.get("chunk_index")).isInstanceOf(Integer.class);
    assertThat(stored.get("chunk_count")).isInstanceOf(Integer.class);
    assertThat(stored.get("generation")).isInstanceOf(Long.class);
    assertThat(stored.get("epoch_added")).isEqualTo(1L);
    assertThat(stored.get("row_refs")).isEqualTo(List.of("42", "clinic:notes:42"));
    assertThat(stored.get("table_gen")).isEqualTo("clinic\u001Fnotes\u001F1");
    assertThat(stored.getList("vector", Double.class)).hasSize(TestVectors.DIM);

    Document pointer = raw(DocumentDbSchema.INDEXED_TABLES).find().first();
    assertThat(pointer).isNotNull();
    assertThat(pointer.getList("generations", Document.class))
        .containsExactly(new Document("generation", 1L).append("since_epoch", 1L));
  }

  @Test
  void writesAreInvisibleUntilCommit() {
    RowRef a = new RowRef(NOTES, "a");
    store.publish(NOTES, 1);
    store.upsertRow(a, 1, chunks(a, 1, null, "hypertension follow up"));

    assertThat(store.ready()).isFalse();
    assertThat(store.activeGenerations()).isEmpty();
    assertThat(store.rowChunks(a)).isEmpty();
    assertThat(store.countRows(NOTES)).isZero();
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments()).as("nothing sent before commit").isZero();

    store.commit(Map.of());
    assertThat(store.rowChunks(a)).hasSize(1);

    RowRef b = new RowRef(NOTES, "b");
    store.upsertRow(b, 1, chunks(b, 1, null, "new diagnosis"));
    store.deleteRow(a);
    assertThat(store.rowChunks(a)).hasSize(1);
    assertThat(store.rowChunks(b)).isEmpty();

    store.commit(Map.of());
    assertThat(store.rowChunks(a)).isEmpty();
    assertThat(store.rowChunks(b)).hasSize(1);
    assertThat(store.countRows(NOTES)).isEqualTo(1);
  }

  @Test
  void upsertRowReplacesAllChunksOfTheRowAndReplaysAreIdempotent() {
    RowRef r = new RowRef(NOTES, "7");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", "first part asthma", "second part inhaler", "third part"));
    store.commit(Map.of());
    assertThat(store.chunkCount()).isEqualTo(3);

    List<StoredChunk> one = chunks(r, 1, "p1", "asthma resolved");
    store.upsertRow(r, 1, one);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).containsExactlyElementsOf(one);
    assertThat(store.chunkCount()).isEqualTo(1);
    assertThat(store.countRows(NOTES)).isEqualTo(1);

    store.upsertRow(r, 1, one);
    store.upsertRow(r, 1, one);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).containsExactlyElementsOf(one);
    assertThat(store.chunkCount()).isEqualTo(1);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments())
        .as("superseded versions are deleted after the grace period (zero here)").isEqualTo(1);
  }

  @Test
  void deleteRowRemovesTheRowFromEveryGeneration() {
    RowRef r = new RowRef(NOTES, "r");
    RowRef keep = new RowRef(NOTES, "keep");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "anemia workup"));
    store.upsertRow(r, 2, chunks(r, 2, null, "anemia workup repeated"));
    store.upsertRow(keep, 1, chunks(keep, 1, null, "kept"));
    store.upsertRow(keep, 2, chunks(keep, 2, null, "kept"));
    store.commit(Map.of());
    store.deleteRow(r);
    store.deleteRow(new RowRef(NOTES, "never-existed"));
    store.publish(NOTES, 2);
    store.commit(Map.of());

    assertThat(store.rowChunks(r)).isEmpty();
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments(new Document("row_key", "r"))).isZero();
  }

  @Test
  void deleteThenUpsertInOneBatchKeepsTheNewChunks() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "old"));
    store.commit(Map.of());
    store.deleteRow(r);
    List<StoredChunk> fresh = chunks(r, 1, null, "new", "newer");
    store.upsertRow(r, 1, fresh);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).containsExactlyElementsOf(fresh);

    store.upsertRow(r, 1, chunks(r, 1, null, "gone again"));
    store.deleteRow(r);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).isEmpty();
  }

  @Test
  void upsertWithNoChunksRemovesTheRowFromThatGenerationOnly() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "gout flare"));
    store.upsertRow(r, 2, chunks(r, 2, null, "gout flare staged"));
    store.commit(Map.of());
    store.upsertRow(r, 1, List.of());
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).isEmpty();
    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).extracting(StoredChunk::text).containsExactly("gout flare staged");
  }

  // ------------------------------------------------------------------------------------------------ generations

  @Test
  void stagedGenerationIsInvisibleUntilPublishedAndPublicationSwitchesTheWholeTable() {
    store.publish(NOTES, 1);
    for (int i = 0; i < 5; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 1, chunks(r, 1, null, "alpha " + i));
    }
    store.commit(Map.of());
    for (int i = 0; i < 7; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 2, chunks(r, 2, null, "beta " + i, "beta part two"));
    }
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(store.countRows(NOTES)).isEqualTo(5);
    assertThat(store.chunkCount()).isEqualTo(5);
    assertThat(store.rowChunks(new RowRef(NOTES, "r6"))).isEmpty();

    RowRef lab = new RowRef(LABS, "l1");
    store.upsertRow(lab, 1, chunks(lab, 1, null, "never published"));
    store.commit(Map.of());
    assertThat(store.countRows(LABS)).isZero();

    store.publish(NOTES, 2);
    assertThat(store.activeGenerations()).as("published, not committed").containsEntry(NOTES, 1L);
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 2L));
    assertThat(store.countRows(NOTES)).isEqualTo(7);
    assertThat(store.chunkCount()).isEqualTo(14);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments(new Document("generation", 1L)))
        .as("generation 1 of notes is deleted, the unpublished labs row stays staged").isEqualTo(1);
  }

  @Test
  void publishingTheActiveGenerationAgainIsANoOpAndOlderGenerationsAreIgnored() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 5);
    store.upsertRow(r, 5, chunks(r, 5, null, "diabetes mellitus type two"));
    store.commit(Map.of());
    store.publish(NOTES, 5);
    store.commit(Map.of());
    store.publish(NOTES, 4);
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 5L));
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(raw(DocumentDbSchema.INDEXED_TABLES).find().first().getList("generations", Document.class))
        .hasSize(1);
  }

  @Test
  void writesIntoASupersededGenerationStayInvisible() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 2);
    store.upsertRow(r, 2, chunks(r, 2, null, "current text"));
    store.commit(Map.of());
    RowRef late = new RowRef(NOTES, "late");
    store.upsertRow(late, 1, chunks(late, 1, null, "late replayed text"));
    store.commit(Map.of());
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(store.chunkCount()).isEqualTo(1);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments(new Document("row_key", "late"))).isZero();
  }

  @Test
  void countRowsCountsDistinctRowsOfTheActiveGeneration() {
    store.publish(NOTES, 1);
    int chunksInGen1 = 0;
    for (int i = 0; i < 12; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      String[] texts = new String[1 + i % 3];
      java.util.Arrays.fill(texts, "text");
      chunksInGen1 += texts.length;
      store.upsertRow(r, 1, chunks(r, 1, null, texts));
    }
    RowRef lab = new RowRef(LABS, "l");
    store.publish(LABS, 1);
    store.upsertRow(lab, 1, chunks(lab, 1, null, "a", "b"));
    store.commit(Map.of());
    assertThat(store.countRows(NOTES)).isEqualTo(12);
    assertThat(store.countRows(LABS)).isEqualTo(1);
    assertThat(store.countRows(new TableRef("other", "notes"))).isZero();
    assertThat(store.chunkCount()).isEqualTo(chunksInGen1 + 2);
  }

  // ------------------------------------------------------------------------------------------------ commit switch

  @Test
  void aCommitThatFailsBeforeItsSwitchIsInvisibleAndUndone() {
    RowRef r = new RowRef(NOTES, "r");
    List<StoredChunk> committed = chunks(r, 1, "p1", "committed");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, committed);
    store.commit(Map.of("offset", "1"));

    RowRef other = new RowRef(NOTES, "other");
    store.upsertRow(r, 1, chunks(r, 1, "p1", "replacement"));
    store.upsertRow(other, 2, chunks(other, 2, null, "next generation"));
    store.publish(NOTES, 2);
    store.failBeforeStateSwitch(() -> {
      // every write of the commit is in the database now, only the switch is missing: a reader sees none of it
      assertThat(store.rowChunks(r)).containsExactlyElementsOf(committed);
      assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
      assertThat(store.countRows(NOTES)).isEqualTo(1);
      assertThat(store.checkpoint()).containsExactly(Map.entry("offset", "1"));
      throw new IllegalStateException("connection lost");
    });
    assertThatThrownBy(() -> store.commit(Map.of("offset", "2"))).hasMessage("connection lost");
    store.failBeforeStateSwitch(() -> { });

    assertThat(store.rowChunks(r)).containsExactlyElementsOf(committed);
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments()).as("the unfinished commit was undone")
        .isEqualTo(1);
    assertThat(raw(DocumentDbSchema.RECORDS).find().first().get("epoch_removed")).isEqualTo(Long.MAX_VALUE);

    // the writes are still buffered: the next commit applies them
    store.commit(Map.of("offset", "2"));
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 2L));
    assertThat(store.rowChunks(other)).extracting(StoredChunk::text).containsExactly("next generation");
    assertThat(store.checkpoint()).containsExactly(Map.entry("offset", "2"));
  }

  @Test
  void aWriterThatStoppedMidCommitLeavesNothingVisibleAndTheNextOpenCleansUp() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "committed"));
    store.commit(Map.of("offset", "1"));

    store.upsertRow(new RowRef(NOTES, "half"), 1, chunks(new RowRef(NOTES, "half"), 1, null, "half written"));
    store.deleteRow(r);
    store.publish(NOTES, 3);
    // a process that dies here has sent its writes but not the switch; undo is left to the next open
    store.failBeforeStateSwitch(() -> {
      throw new Error("process killed");
    });
    assertThatThrownBy(() -> store.commit(Map.of("offset", "2"))).isInstanceOf(Error.class);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments(new Document("epoch_added", 2L)))
        .as("the dead writer's chunk versions are in the database").isEqualTo(1);

    DocumentDbHybridStore reader = DocumentDbHybridStore.open(settings().withTransactions(
        DocumentDbSettings.TransactionMode.DISABLED));
    try {
      assertThat(reader.countRows(NOTES)).isEqualTo(1);
      assertThat(reader.rowChunks(r)).hasSize(1);
      assertThat(reader.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
      assertThat(reader.checkpoint()).containsExactly(Map.entry("offset", "1"));
      assertThat(raw(DocumentDbSchema.RECORDS).countDocuments()).as("opening undid the unfinished commit")
          .isEqualTo(1);
      assertThat(raw(DocumentDbSchema.INDEXED_TABLES).find().first().getList("generations", Document.class))
          .hasSize(1);
    } finally {
      reader.close();
    }
  }

  @Test
  void aReaderHoldingAnOlderEpochStillSeesItsGeneration() {
    store.publish(NOTES, 1);
    RowRef r = new RowRef(NOTES, "r");
    store.upsertRow(r, 1, chunks(r, 1, null, "one"));
    store.upsertRow(r, 2, chunks(r, 2, null, "two"));
    store.commit(Map.of());
    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 2L));
    // the pointer keeps its history: a search that read epoch 1 before this commit resolves generation 1
    List<Document> history = raw(DocumentDbSchema.INDEXED_TABLES).find().first()
        .getList("generations", Document.class);
    assertThat(history).containsExactly(new Document("generation", 1L).append("since_epoch", 1L),
        new Document("generation", 2L).append("since_epoch", 2L));
  }

  @Test
  void retiredChunkVersionsStayForTheGracePeriod() {
    store.close();
    store = DocumentDbHybridStore.open(settings().withRetiredChunkGrace(Duration.ofHours(1)));
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "v1"));
    store.commit(Map.of());
    store.upsertRow(r, 1, chunks(r, 1, null, "v2"));
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).extracting(StoredChunk::text).containsExactly("v2");
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments()).isEqualTo(2);
    assertThat(raw(DocumentDbSchema.RECORDS).countDocuments(new Document("epoch_removed", 2L))).isEqualTo(1);
  }

  @Test
  void aSecondWriterIsDetectedAtCommit() {
    store.publish(NOTES, 1);
    store.commit(Map.of());
    try (DocumentDbHybridStore second = DocumentDbHybridStore.open(settings())) {
      second.commit(Map.of("by", "second"));
      assertThatThrownBy(() -> store.commit(Map.of("by", "first")))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("another writer");
      assertThat(store.checkpoint()).containsExactly(Map.entry("by", "second"));
    }
  }

  // ------------------------------------------------------------------------------------------------ state

  @Test
  void checkpointRoundTripsAcrossCloseAndReopenAndUncommittedWritesAreLost() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", "chest pain evaluation"));
    Map<String, String> cp = Map.of("chartstream.chunks-0", "1041", "odd key/with=chars.$x", "");
    store.commit(cp);
    RowRef lost = new RowRef(NOTES, "lost");
    store.upsertRow(lost, 1, chunks(lost, 1, null, "uncommitted"));
    store.deleteRow(r);
    reopen();

    assertThat(store.checkpoint()).isEqualTo(cp);
    assertThat(store.ready()).isTrue();
    assertThat(store.rowChunks(r)).hasSize(1);
    assertThat(store.rowChunks(lost)).isEmpty();

    store.commit(null);
    assertThat(store.checkpoint()).isEqualTo(cp);
    store.commit(Map.of("chartstream.chunks-0", "1042"));
    reopen();
    assertThat(store.checkpoint()).containsExactly(Map.entry("chartstream.chunks-0", "1042"));
  }

  @Test
  void readinessFollowsTheFirstCommittedPublication() {
    assertThat(store.ready()).isFalse();
    store.publish(NOTES, 1);
    assertThat(store.ready()).isFalse();
    store.commit(Map.of());
    assertThat(store.ready()).isTrue();
    store.close();
    assertThat(store.ready()).isFalse();
    assertThatThrownBy(() -> store.commit(Map.of())).isInstanceOf(IllegalStateException.class);
    store = null;
  }

  @Test
  void invalidUpsertsAreRejected() {
    RowRef r = new RowRef(NOTES, "r");
    RowRef other = new RowRef(NOTES, "other");
    assertThatThrownBy(() -> store.upsertRow(r, 1, chunks(other, 1, null, "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.upsertRow(r, 2, chunks(r, 1, null, "x")))
        .isInstanceOf(IllegalArgumentException.class);
    StoredChunk eight = ChunkFixture.of(r).text("x").vector(TestVectors.centroid(0, 8)).build();
    assertThatThrownBy(() -> store.upsertRow(r, 1, List.of(eight)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension").hasMessageContaining("16");
    StoredChunk zero = ChunkFixture.of(r).text("x").vector(new float[TestVectors.DIM]).build();
    assertThatThrownBy(() -> store.upsertRow(r, 1, List.of(zero))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.vectorSearch(TestVectors.centroid(0, 8), 5, RetrievalFilter.NONE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    assertThatThrownBy(() -> store.vectorSearch(TestVectors.centroid(0), 0, RetrievalFilter.NONE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDatabaseOfAnotherDimensionIsRefusedAtOpenBeforeAnyIndexCommand() {
    store.close();
    store = null;
    raw(DocumentDbSchema.RECORDS).dropIndexes();
    DocumentDbSettings other = DocumentDbSettings.defaults(connectionString, database, 384);
    assertThatThrownBy(() -> DocumentDbHybridStore.open(other))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("16-dimensional")
        .hasMessageContaining("384 dimensions").hasMessageContaining("reindex into a new database");
    assertThat(raw(DocumentDbSchema.RECORDS).listIndexes().into(new ArrayList<>()))
        .as("the check runs before the first createIndexes").extracting(d -> d.getString("name"))
        .containsExactly("_id_");
  }

  @Test
  void aDatabaseOfAnotherIndexKindIsRefusedAtOpenBeforeAnyIndexCommand() {
    store.close();
    store = null;
    raw(DocumentDbSchema.RECORDS).dropIndexes();
    DocumentDbSettings ivf = settings().withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF);
    assertThatThrownBy(() -> DocumentDbHybridStore.open(ivf))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("in a vector-hnsw index")
        .hasMessageContaining("in a vector-ivf index").hasMessageContaining("reindex into a new database");
    assertThat(raw(DocumentDbSchema.RECORDS).listIndexes().into(new ArrayList<>()))
        .extracting(d -> d.getString("name")).containsExactly("_id_");
  }

  @Test
  void anIvfIndexIsBuiltOnceDataIsInAndRebuiltWhenTheCollectionDoubles() {
    store.close();
    database = database + "_ivf";
    store = DocumentDbHybridStore.open(settings().withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF));
    assertThat(vectorIndexNames()).as("no IVF index on an empty collection").isEmpty();

    store.publish(NOTES, 1);
    writeRows(1, 0, 10);
    store.commit(Map.of());
    assertThat(vectorIndexNames()).containsExactly(DocumentDbPipelines.VECTOR_INDEX_NAME);
    assertThat(indexBuiltOn()).isEqualTo(10L);

    writeRows(2, 0, 15);
    store.commit(Map.of());
    assertThat(indexBuiltOn()).as("25 documents, staged ones included: the index holds them too").isEqualTo(25L);
    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(indexBuiltOn()).as("a publication of no new documents builds nothing").isEqualTo(25L);

    store.publish(NOTES, 3);
    writeRows(3, 0, 20);
    store.commit(Map.of());
    assertThat(indexBuiltOn()).as("45 documents, fewer than twice 25").isEqualTo(25L);
    assertThat(vectorIndexNames()).containsExactly(DocumentDbPipelines.VECTOR_INDEX_NAME);
  }

  @Test
  void streamedUpsertsIntoTheActiveGenerationRetrainTheIvfIndexWithListsForTheNewSize() {
    store.close();
    database = database + "_ivf_stream";
    store = DocumentDbHybridStore.open(settings().withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF));
    store.publish(NOTES, 1);
    writeRows(1, 0, 10);
    store.commit(Map.of());
    assertThat(indexBuiltOn()).isEqualTo(10L);

    for (int batch = 0; batch < 2; batch++) {
      writeRows(1, 10 + batch * 5, 15 + batch * 5);
      store.commit(Map.of());
    }
    assertThat(indexBuiltOn()).as("20 documents, twice 10, without a publication").isEqualTo(20L);
    assertThat(indexLists()).isEqualTo(IvfSizing.lists(20));
    assertThat(cosmosSearch(store.pushedDownPipeline(TestVectors.centroid(0), 10, RetrievalFilter.NONE)))
        .as("the probes follow the lists the index was built with")
        .containsEntry("nProbes", IvfSizing.probes(IvfSizing.lists(20))).doesNotContainKey("efSearch");
  }

  private Integer indexLists() {
    return raw(DocumentDbSchema.COMMIT_STATE).find().first().getInteger(DocumentDbSchema.STATE_VECTOR_INDEX_LISTS);
  }

  @Test
  void aStoreWrittenBeforeTheKindMarkerKeepsItsIndexKindFromListIndexes() {
    store.close();
    store = null;
    raw(DocumentDbSchema.COMMIT_STATE).updateOne(new Document(),
        new Document("$unset", new Document(DocumentDbSchema.STATE_VECTOR_INDEX_KIND, "")));
    DocumentDbSettings ivf = settings().withVectorIndexKind(DocumentDbSettings.VectorIndexKind.IVF);
    assertThatThrownBy(() -> DocumentDbHybridStore.open(ivf))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("in a vector-hnsw index")
        .hasMessageContaining("in a vector-ivf index").hasMessageContaining("reindex into a new database");
    assertThat(vectorIndexNames()).as("the HNSW index is not dropped").hasSize(1);
    assertThat(DocumentDbPipelines.vectorIndexOptions(raw(DocumentDbSchema.RECORDS).listIndexes()))
        .containsEntry("kind", "vector-hnsw");

    store = DocumentDbHybridStore.open(settings());
    assertThat(raw(DocumentDbSchema.COMMIT_STATE).find().first().getString(DocumentDbSchema.STATE_VECTOR_INDEX_KIND))
        .as("opened with its own kind, the marker is written").isEqualTo("vector-hnsw");
  }

  private void writeRows(long generation, int from, int to) {
    for (int i = from; i < to; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, generation, chunks(r, generation, null, "row " + i));
    }
  }

  private List<String> vectorIndexNames() {
    return raw(DocumentDbSchema.RECORDS).listIndexes().into(new ArrayList<>()).stream()
        .map(d -> d.getString("name")).filter(DocumentDbPipelines.VECTOR_INDEX_NAME::equals).toList();
  }

  private Long indexBuiltOn() {
    return raw(DocumentDbSchema.COMMIT_STATE).find().first().getLong(DocumentDbSchema.STATE_VECTOR_INDEX_ROWS);
  }

  @Test
  void indexesCoverEveryFilterFieldTheTextAndTheVector() {
    List<Document> indexes = raw(DocumentDbSchema.RECORDS).listIndexes().into(new ArrayList<>());
    assertThat(indexes).extracting(d -> d.getString("name")).contains("filter_patient", "filter_table",
        "filter_source", "filter_row", "active_chunks", "active_rows", "row_versions", "text_search",
        "vector_cosmos_search");
    Document patient = indexes.stream().filter(d -> d.getString("name").equals("filter_patient")).findFirst()
        .orElseThrow();
    assertThat(patient.get("key", Document.class).keySet())
        .containsExactly("patient", "table_gen", "epoch_added", "epoch_removed");
  }

  @Test
  void aTextIndexOfTheOldAdapterIsDroppedAndRecreatedWeighted() {
    store.close();
    store = null;
    MongoCollection<Document> records = raw(DocumentDbSchema.RECORDS);
    records.dropIndex(DocumentDbPipelines.TEXT_INDEX_NAME);
    records.createIndex(new Document(DocumentDbPipelines.TEXT, "text"),
        new IndexOptions().name(DocumentDbPipelines.TEXT_INDEX_NAME));
    assertThat(DocumentDbPipelines.isCurrentTextIndex(textIndex())).isFalse();

    store = DocumentDbHybridStore.open(settings());

    assertThat(DocumentDbPipelines.isCurrentTextIndex(textIndex())).isTrue();
    reopen();
    assertThat(DocumentDbPipelines.isCurrentTextIndex(textIndex())).as("an open keeps a current index").isTrue();
  }

  private Document textIndex() {
    return raw(DocumentDbSchema.RECORDS).listIndexes().into(new ArrayList<>()).stream()
        .filter(d -> DocumentDbPipelines.TEXT_INDEX_NAME.equals(d.getString("name"))).findFirst().orElseThrow();
  }

  @Test
  void everyChunkStoresItsOpeningForTheWeightedTextIndex() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1,
        chunks(r, 1, null, "Clinical note\nPatient: p1\nheadache", "Clinical note\nPatient: p1\naura"));
    store.commit(Map.of());
    assertThat(raw(DocumentDbSchema.RECORDS).find().into(new ArrayList<>()))
        .extracting(d -> d.getString(DocumentDbPipelines.OPENING))
        .containsExactlyInAnyOrder("Clinical note Patient: p1 headache", "Clinical note Patient: p1 aura");
  }

  // ------------------------------------------------------------------------------------------------ transactions

  @Test
  void withoutServerTransactionsCommitsUseTheSingleDocumentSwitch() {
    assertThat(store.transactionsInUse()).isFalse();
  }

  @Test
  void requiringTransactionsOnAServerWithoutThemFailsAtOpenWithAClearMessage() {
    DocumentDbSettings required = settings().withTransactions(DocumentDbSettings.TransactionMode.REQUIRED);
    assertThatThrownBy(() -> DocumentDbHybridStore.open(required))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("transactions are required")
        .hasMessageContaining("does not support them");
  }

  // ------------------------------------------------------------------------------------------------ search

  @Test
  void searchesOnAServerWithoutSearchFailWithAClearMessage() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, "headache"));
    store.commit(Map.of());

    assertThatThrownBy(() -> store.vectorSearch(TestVectors.centroid(0), 5, RetrievalFilter.forPatient("p1")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("does not support vector search ($search.cosmosSearch)")
        .hasMessageContaining("not a DocumentDB engine")
        .hasMessageContaining("$search");
    assertThatThrownBy(() -> store.lexicalSearch("headache", 5, RetrievalFilter.NONE))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("does not support text search ($text)")
        .hasMessageContaining("not a DocumentDB engine");
  }

  @Test
  void vectorSearchesSendTheEngineDefaultsUnlessConfiguredAndScanSelectiveFiltersExactly() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", "headache"));
    store.commit(Map.of());
    float[] query = TestVectors.centroid(0);

    Document unfiltered = cosmosSearch(store.pushedDownPipeline(query, 10, RetrievalFilter.NONE));
    assertThat(unfiltered).containsEntry("k", 10).containsEntry("efSearch", DocumentDbSettings.DEFAULT_EF_SEARCH)
        .doesNotContainKeys("nProbes", "exact");
    for (RetrievalFilter selective : List.of(RetrievalFilter.forPatient("p1"), RetrievalFilter.forRowKeys("r"),
        RetrievalFilter.forTables(NOTES.table()))) {
      assertThat(cosmosSearch(store.pushedDownPipeline(query, 10, selective))).as("%s", selective)
          .containsEntry("exact", true).doesNotContainKeys("efSearch", "nProbes");
    }

    store.close();
    store = DocumentDbHybridStore.open(settings().withNumCandidates(300));
    assertThat(cosmosSearch(store.pushedDownPipeline(query, 10, RetrievalFilter.NONE)).get("efSearch"))
        .as("numCandidates of the settings, int32").isEqualTo(300);
    store.close();
    store = DocumentDbHybridStore.open(settings().withNumCandidates(null));
    assertThat(cosmosSearch(store.pushedDownPipeline(query, 10, RetrievalFilter.NONE)))
        .as("the engine's own list, chosen explicitly").doesNotContainKey("efSearch");
  }

  private static Document cosmosSearch(List<Document> pipeline) {
    return pipeline.get(0).get("$search", Document.class).get("cosmosSearch", Document.class);
  }

  @Test
  void theExactTermLookupCitesEachRowsFirstMatchingChunkWithoutItsVector() {
    RowRef a = new RowRef(NOTES, "a");
    RowRef b = new RowRef(NOTES, "b");
    store.publish(NOTES, 1);
    store.upsertRow(a, 1, chunks(a, 1, "p1", "no match here", "metformin 500 mg", "metformin again"));
    store.upsertRow(b, 1, chunks(b, 1, "p2", "Metformin started"));
    store.commit(Map.of());
    TermIndex terms = store.termIndex().orElseThrow();

    TermIndex.TermRows found = terms.rowsWithTerm("metformin", RetrievalFilter.NONE, 10);
    assertThat(found.total()).isEqualTo(2);
    assertThat(found.rows()).extracting(c -> c.row().rowKey(), StoredChunk::chunkIndex, StoredChunk::text)
        .containsExactly(tuple("a", 1, "metformin 500 mg"), tuple("b", 0, "Metformin started"));
    assertThat(found.rows()).allSatisfy(c -> assertThat(c.vector()).isNull());
    TermIndex.TermRows capped = terms.rowsWithTerm("metformin", RetrievalFilter.NONE, 1);
    assertThat(capped.total()).isEqualTo(2);
    assertThat(capped.rows()).extracting(c -> c.row().rowKey()).containsExactly("a");

  }

  @Test
  void aTermTooLongForTheEnginesRegexIsStillMatchedWhole() {
    String term = String.join(" ", Collections.nCopies(40, "lorem"));
    String sharesItsFirst190Characters = String.join(" ", Collections.nCopies(35, "lorem")) + " ipsum";
    assertThat(TermPattern.fold(term).length()).isGreaterThan(DocumentDbTermLookup.MAX_TERM_CHARS);
    assertThat(sharesItsFirst190Characters.substring(0, DocumentDbTermLookup.MAX_TERM_CHARS))
        .isEqualTo(term.substring(0, DocumentDbTermLookup.MAX_TERM_CHARS));
    RowRef whole = new RowRef(NOTES, "whole");
    RowRef prefixOnly = new RowRef(NOTES, "prefix-only");
    store.publish(NOTES, 1);
    store.upsertRow(whole, 1, chunks(whole, 1, "p1", "note: " + term.toUpperCase() + "."));
    store.upsertRow(prefixOnly, 1, chunks(prefixOnly, 1, "p2", "note: " + sharesItsFirst190Characters));
    store.commit(Map.of());

    TermIndex.TermRows found = store.termIndex().orElseThrow().rowsWithTerm(term, RetrievalFilter.NONE, 10);
    assertThat(found.total()).isEqualTo(1);
    assertThat(found.rows()).extracting(c -> c.row().rowKey()).containsExactly("whole");
  }

  @Test
  void searchesOfAnEmptyStoreOrWithoutSearchableTermsReturnNothingWithoutAskingTheServer() {
    assertThat(store.vectorSearch(TestVectors.centroid(0), 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.lexicalSearch("anything", 5, RetrievalFilter.NONE)).isEmpty();
    store.publish(NOTES, 1);
    store.commit(Map.of());
    assertThat(store.lexicalSearch(" -- \"\" ", 5, RetrievalFilter.NONE)).isEmpty();
  }
}
