package org.chartstream.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link HybridStore} implementation must have. A subclass says how to open its store on a
 * persistent location ({@link #reopen()} must give a store that sees what the previous one committed) and which
 * optional capabilities its store lacks.
 *
 * <p>Capability tiers, as in LangChain4j's embedding-store tests and Lucene's {@code BaseKnnVectorsFormatTestCase}:
 * everything the port promises is tested for every store; a behaviour that only some stores have is behind a
 * capability method that returns {@code true} here and that a store's subclass overrides to {@code false} when it
 * lacks it. A test that needs a capability is then skipped (a JUnit assumption, reported as skipped), never
 * weakened, and it still runs for every store that has it:
 *
 * <ul>
 *   <li>{@link #rowLevelLexicalScores()}: a lexical hit scored by its whole row's text, not by its chunk alone;
 *   <li>{@link #exactFilteredVectorSearch()}: a selective filtered vector search that ranks like a brute-force scan;
 *   <li>{@link #vectorAndLexicalSearch()}: vector and lexical search at all (a wire-protocol test double has none);
 *   <li>{@link #exactTermLookup()}: the store's {@link TermIndex} (every row holding a term, not a top k);
 *   <li>{@link #similarIndexedWords()}: the indexed words a few edits from a word ("did you mean").
 * </ul>
 */
public abstract class HybridStoreContract {

  protected static final TableRef NOTES = new TableRef("clinic", "notes");
  protected static final TableRef LABS = new TableRef("clinic", "labs");

  @TempDir
  protected Path tempDir;

  protected HybridStore store;

  /** Opens the implementation under test on {@code location}; a second call on the same location reopens it. */
  protected abstract HybridStore openStore(Path location) throws Exception;

  protected Path location() {
    return tempDir.resolve("store");
  }

  @BeforeEach
  void openStoreUnderTest() throws Exception {
    store = openStore(location());
  }

  @AfterEach
  void closeStoreUnderTest() {
    if (store != null) {
      store.close();
    }
  }

  // ------------------------------------------------------------------------------------------------ capabilities

  /**
   * A lexical hit's score is its row's: BM25 over the row's whole text (its chunks rejoined), so a row's matching
   * chunks share one score and a row whose terms are spread over several chunks outranks a shorter row that repeats
   * one term. The tier exists because a long record's terms land in different chunks: the Lucene store indexes the
   * row's text on its head chunk for this, while DocumentDB's {@code $text} can only score each chunk document alone.
   */
  protected boolean rowLevelLexicalScores() {
    return true;
  }

  /**
   * A filtered vector search whose filter matches hundreds of chunks (one patient's, more than a search beam)
   * returns exactly the top k a brute-force scan over them would. The tier exists because exactness under a filter
   * is an engine choice: the Lucene store scores every matching chunk when they are at most 20,000, and DocumentDB
   * asks its engine for an exact scan ({@code cosmosSearch.exact}) under a patient or row filter; an approximate
   * filtered search returns k matching hits (the port's promise) but not necessarily the exact k.
   */
  protected boolean exactFilteredVectorSearch() {
    return true;
  }

  /**
   * The store can run its vector and lexical searches. The tier exists for test doubles of a search engine's wire
   * protocol: DocumentDB's searches ({@code $search.cosmosSearch}, {@code $text}) are engine features that
   * mongo-java-server, the in-process double of the default build, lacks; with the tier off, the tests that need no
   * search (counts, row lookups, validation, closing, an empty store) still run the adapter's own code there.
   */
  protected boolean vectorAndLexicalSearch() {
    return true;
  }

  /**
   * The store has a {@link TermIndex}: every row whose text holds a term, within a filter, up to a cap. The tier
   * exists because a store without one still serves every ranked question; cohort questions then take that path.
   */
  protected boolean exactTermLookup() {
    return true;
  }

  /**
   * {@link TermIndex#similarWords} walks the store's term dictionary. The tier exists because that dictionary is an
   * engine internal: Lucene's terms enum has it, DocumentDB exposes none to a client (its $text index is not
   * enumerable), so there the lookup finds nothing and questions with a misspelled word are answered as asked.
   */
  protected boolean similarIndexedWords() {
    return true;
  }

  private TermIndex terms() {
    assumeTrue(exactTermLookup(), "the store has no exact-term lookup");
    return store.termIndex().orElseThrow(() -> new AssertionError("exactTermLookup() but no termIndex()"));
  }

  protected HybridStore reopen() throws Exception {
    store.close();
    store = null;
    store = openStore(location());
    return store;
  }

  // ------------------------------------------------------------------------------------------------ fixtures

  protected static StoredChunk chunk(RowRef row, long gen, int index, int count, String text, float[] vector,
      String patient) {
    return ChunkFixture.of(row).generation(gen).index(index, count).text(text).vector(vector).patient(patient).build();
  }

  /** One chunk per text, vectors from {@code topic}. */
  protected static List<StoredChunk> chunks(RowRef row, long gen, String patient, int topic, String... texts) {
    List<StoredChunk> out = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      out.add(chunk(row, gen, i, texts.length, texts[i], vectorFor(row, gen, i, topic), patient));
    }
    return out;
  }

  protected static float[] vectorFor(RowRef row, long gen, int index, int topic) {
    return TestVectors.member(topic, Objects.hash(row.id(), gen, index));
  }

  protected static Set<String> ids(List<SearchHit> hits) {
    return hits.stream().map(h -> h.chunk().chunkId()).collect(Collectors.toSet());
  }

  protected static Set<String> rowIds(List<SearchHit> hits) {
    return hits.stream().map(h -> h.chunk().row().id()).collect(Collectors.toSet());
  }

  private static void assertRanked(List<SearchHit> hits) {
    for (int i = 0; i < hits.size(); i++) {
      assertThat(hits.get(i).rank()).isEqualTo(i + 1);
      if (i > 0) {
        assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ cases

  @Test
  void emptyStoreIsNotReadyAndFindsNothing() {
    assertThat(store.ready()).isFalse();
    assertThat(store.activeGenerations()).isEmpty();
    assertThat(store.checkpoint()).isEmpty();
    assertThat(store.chunkCount()).isZero();
    assertThat(store.vectorSearch(TestVectors.centroid(0), 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.lexicalSearch("anything", 5, RetrievalFilter.NONE)).isEmpty();
  }

  @Test
  void upsertAndCommitThenVectorAndLexicalSearchFindTheRow() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef target = new RowRef(NOTES, "42");
    store.publish(NOTES, 1);
    for (int i = 0; i < 30; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 1, chunks(r, 1, "p" + i % 3, i % 5, "routine follow-up visit, vitals stable " + i));
    }
    List<StoredChunk> written =
        chunks(target, 1, "p7", 2, "patient reports persistent migraine with aura", "prescribed sumatriptan");
    store.upsertRow(target, 1, written);
    store.commit(Map.of("chunks-0", "31"));

    assertThat(store.ready()).isTrue();
    List<SearchHit> vector = store.vectorSearch(written.get(1).vector(), 5, RetrievalFilter.NONE);
    assertThat(vector).hasSize(5);
    assertRanked(vector);
    SearchHit top = vector.get(0);
    assertThat(top.chunk().chunkId()).isEqualTo(written.get(1).chunkId());
    assertThat(top.score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(top.chunk()).as("every field, the float32 vector included").isEqualTo(written.get(1));

    List<SearchHit> lexical = store.lexicalSearch("migraine aura", 5, RetrievalFilter.NONE);
    assertThat(lexical).isNotEmpty();
    assertRanked(lexical);
    assertThat(lexical.get(0).chunk().chunkId()).isEqualTo(written.get(0).chunkId());
    assertThat(lexical.get(0).chunk()).isEqualTo(written.get(0));
    assertThat(store.lexicalSearch("sumatriptan", 5, RetrievalFilter.NONE))
        .extracting(h -> h.chunk().chunkId()).containsExactly(written.get(1).chunkId());
  }

  @Test
  void writesAreInvisibleUntilCommit() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef a = new RowRef(NOTES, "a");
    List<StoredChunk> aChunks = chunks(a, 1, null, 1, "hypertension follow up");
    store.publish(NOTES, 1);
    store.upsertRow(a, 1, aChunks);

    assertThat(store.ready()).isFalse();
    assertThat(store.activeGenerations()).isEmpty();
    assertThat(store.lexicalSearch("hypertension", 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.vectorSearch(aChunks.get(0).vector(), 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.countRows(NOTES)).isZero();
    assertThat(store.rowChunks(a)).isEmpty();

    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(rowIds(store.lexicalSearch("hypertension", 5, RetrievalFilter.NONE))).containsExactly(a.id());

    RowRef b = new RowRef(NOTES, "b");
    store.upsertRow(b, 1, chunks(b, 1, null, 1, "hypertension new diagnosis"));
    store.deleteRow(a);
    // neither the new row nor the delete is visible yet
    assertThat(rowIds(store.lexicalSearch("hypertension", 5, RetrievalFilter.NONE))).containsExactly(a.id());
    assertThat(store.countRows(NOTES)).isEqualTo(1);

    store.commit(Map.of());
    assertThat(rowIds(store.lexicalSearch("hypertension", 5, RetrievalFilter.NONE))).containsExactly(b.id());
  }

  @Test
  void upsertRowReplacesAllChunksOfTheRow() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "7");
    List<StoredChunk> three = chunks(r, 1, "p1", 3, "first part asthma", "second part inhaler", "third part spirometry");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, three);
    store.commit(Map.of());
    assertThat(store.rowChunks(r)).hasSize(3);
    assertThat(store.chunkCount()).isEqualTo(3);

    List<StoredChunk> one = chunks(r, 1, "p1", 3, "asthma resolved");
    store.upsertRow(r, 1, one);
    store.commit(Map.of());

    assertThat(store.rowChunks(r)).extracting(StoredChunk::text).containsExactly("asthma resolved");
    assertThat(store.chunkCount()).isEqualTo(1);
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(store.lexicalSearch("spirometry inhaler", 10, RetrievalFilter.NONE)).isEmpty();
    assertThat(ids(store.vectorSearch(three.get(2).vector(), 10, RetrievalFilter.NONE)))
        .containsExactly(one.get(0).chunkId());

    // replaying the same upsert is idempotent
    store.upsertRow(r, 1, one);
    store.commit(Map.of());
    assertThat(store.chunkCount()).isEqualTo(1);
  }

  @Test
  void deleteRowRemovesItFromBothSides() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef keep = new RowRef(NOTES, "keep");
    RowRef gone = new RowRef(NOTES, "gone");
    List<StoredChunk> goneChunks = chunks(gone, 1, null, 4, "fracture of left radius", "cast applied");
    store.publish(NOTES, 1);
    store.upsertRow(keep, 1, chunks(keep, 1, null, 1, "fracture healed well"));
    store.upsertRow(gone, 1, goneChunks);
    store.commit(Map.of());
    assertThat(rowIds(store.lexicalSearch("fracture", 10, RetrievalFilter.NONE))).contains(gone.id());

    store.deleteRow(gone);
    store.deleteRow(new RowRef(NOTES, "never-existed"));
    store.commit(Map.of());

    assertThat(rowIds(store.lexicalSearch("fracture cast radius", 10, RetrievalFilter.NONE)))
        .containsExactly(keep.id());
    assertThat(rowIds(store.vectorSearch(goneChunks.get(0).vector(), 10, RetrievalFilter.NONE)))
        .containsExactly(keep.id());
    assertThat(store.rowChunks(gone)).isEmpty();
    assertThat(store.countRows(NOTES)).isEqualTo(1);
  }

  @Test
  void deleteRowRemovesTheRowFromEveryGeneration() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, 1, "anemia workup"));
    store.upsertRow(r, 2, chunks(r, 2, null, 1, "anemia workup repeated"));
    store.commit(Map.of());
    store.deleteRow(r);
    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(store.lexicalSearch("anemia", 10, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.countRows(NOTES)).isZero();
  }

  @Test
  void stagedGenerationIsInvisibleUntilPublished() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    store.publish(NOTES, 1);
    for (int i = 0; i < 5; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 1, chunks(r, 1, null, 1, "alpha generation text " + i));
    }
    store.commit(Map.of());
    List<StoredChunk> staged = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      List<StoredChunk> c = chunks(r, 2, null, 6, "beta generation text " + i);
      staged.addAll(c);
      store.upsertRow(r, 2, c);
    }
    store.commit(Map.of());

    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(store.lexicalSearch("beta", 10, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.vectorSearch(staged.get(0).vector(), 20, RetrievalFilter.NONE))
        .allSatisfy(h -> assertThat(h.chunk().generation()).isEqualTo(1L));
    assertThat(store.countRows(NOTES)).isEqualTo(5);
    assertThat(store.rowChunks(new RowRef(NOTES, "r0"))).extracting(StoredChunk::generation).containsExactly(1L);
    assertThat(store.rowChunks(new RowRef(NOTES, "r6"))).isEmpty();

    // a table that was never published is invisible too
    RowRef lab = new RowRef(LABS, "l1");
    store.upsertRow(lab, 1, chunks(lab, 1, null, 1, "beta hemoglobin"));
    store.commit(Map.of());
    assertThat(store.lexicalSearch("hemoglobin", 10, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.countRows(LABS)).isZero();
  }

  @Test
  void publishSwitchesAllRowsOfTheTableAtOnce() throws Exception {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    int rows = 10;
    RowRef lab = new RowRef(LABS, "l1");
    store.publish(NOTES, 1);
    store.publish(LABS, 3);
    store.upsertRow(lab, 3, chunks(lab, 3, null, 1, "record of potassium level"));
    for (int i = 0; i < rows; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 1, chunks(r, 1, null, 1, "record old version " + i));
    }
    store.commit(Map.of("offset", "1"));

    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    AtomicInteger sawNew = new AtomicInteger();
    AtomicInteger searches = new AtomicInteger();
    Thread reader = new Thread(() -> {
      RetrievalFilter notes = RetrievalFilter.forTables(NOTES.table());
      while (!stop.get()) {
        List<SearchHit> lex = store.lexicalSearch("record version", 50, notes);
        List<SearchHit> vec = store.vectorSearch(TestVectors.centroid(1), 50, notes);
        for (List<SearchHit> hits : List.of(lex, vec)) {
          Set<Long> gens = hits.stream().map(h -> h.chunk().generation()).collect(Collectors.toSet());
          if (hits.size() != rows || gens.size() != 1 || rowIds(hits).size() != rows) {
            violations.add("hits=" + hits.size() + " generations=" + gens);
          }
          if (gens.contains(2L)) {
            sawNew.incrementAndGet();
          }
        }
        searches.incrementAndGet();
      }
    }, "contract-reader");
    reader.start();
    try {
      while (searches.get() < 5) {
        Thread.sleep(1);
      }
      for (int i = 0; i < rows; i++) {
        RowRef r = new RowRef(NOTES, "r" + i);
        store.upsertRow(r, 2, chunks(r, 2, null, 1, "record new version " + i));
      }
      store.commit(Map.of("offset", "2"));
      store.publish(NOTES, 2);
      // published but not committed: still the old generation
      assertThat(store.activeGenerations()).containsEntry(NOTES, 1L);
      assertThat(store.lexicalSearch("new", 50, RetrievalFilter.NONE)).isEmpty();
      store.commit(Map.of("offset", "3"));
      int before = searches.get();
      while (searches.get() < before + 5) {
        Thread.sleep(1);
      }
    } finally {
      stop.set(true);
      reader.join(30_000);
    }
    assertThat(violations).isEmpty();
    assertThat(sawNew.get()).isPositive();

    assertThat(store.activeGenerations()).containsOnly(Map.entry(NOTES, 2L), Map.entry(LABS, 3L));
    assertThat(store.lexicalSearch("old", 50, RetrievalFilter.NONE)).isEmpty();
    List<SearchHit> now = store.lexicalSearch("record version", 50, RetrievalFilter.forTables("notes"));
    assertThat(now).hasSize(rows).allSatisfy(h -> assertThat(h.chunk().generation()).isEqualTo(2L));
    assertThat(store.countRows(NOTES)).isEqualTo(rows);
    // the other table is untouched
    assertThat(rowIds(store.lexicalSearch("potassium", 5, RetrievalFilter.NONE))).containsExactly(lab.id());
  }

  @Test
  void publishingTheActiveGenerationAgainIsANoOpAndOlderGenerationsAreIgnored() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 5);
    store.upsertRow(r, 5, chunks(r, 5, null, 1, "diabetes mellitus type two"));
    store.commit(Map.of());

    store.publish(NOTES, 5);
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 5L));
    assertThat(rowIds(store.lexicalSearch("diabetes", 5, RetrievalFilter.NONE))).containsExactly(r.id());
    assertThat(store.countRows(NOTES)).isEqualTo(1);

    store.publish(NOTES, 4);
    store.commit(Map.of());
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 5L));
    assertThat(rowIds(store.lexicalSearch("diabetes", 5, RetrievalFilter.NONE))).containsExactly(r.id());
  }

  @Test
  void writesIntoASupersededGenerationStayInvisible() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 2);
    store.upsertRow(r, 2, chunks(r, 2, null, 1, "current text"));
    store.commit(Map.of());
    RowRef late = new RowRef(NOTES, "late");
    store.upsertRow(late, 1, chunks(late, 1, null, 1, "late replayed text"));
    store.commit(Map.of());
    assertThat(store.lexicalSearch("replayed", 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.countRows(NOTES)).isEqualTo(1);
    assertThat(store.chunkCount()).isEqualTo(1);
  }

  @Test
  void patientFilterReturnsOnlyThatPatientAndStillReturnsK() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    int patients = 200;
    int rowsPerPatient = 5;
    String[] tables = {"notes", "labs", "meds"};
    store.publish(NOTES, 1);
    store.publish(LABS, 1);
    store.publish(new TableRef("clinic", "meds"), 1);
    int labRows = 0;
    for (int p = 0; p < patients; p++) {
      for (int j = 0; j < rowsPerPatient; j++) {
        RowRef r = new RowRef("clinic", tables[(p + j) % 3], "p" + p + "-" + j);
        labRows += r.table().equals("labs") ? 1 : 0;
        int topic = (p * rowsPerPatient + j) % 20;
        store.upsertRow(r, 1, chunks(r, 1, "patient-" + p, topic,
            "blood pressure reading during clinic visit number " + j));
      }
    }
    store.commit(Map.of());

    String patient = "patient-137";
    // a query from a topic none of this patient's rows belong to: the filter must still yield k hits
    Set<Integer> patientTopics =
        IntStream.range(0, rowsPerPatient).map(j -> (137 * rowsPerPatient + j) % 20).boxed().collect(Collectors.toSet());
    int otherTopic = IntStream.range(0, 20).filter(t -> !patientTopics.contains(t)).findFirst().orElseThrow();
    List<SearchHit> vector = store.vectorSearch(TestVectors.centroid(otherTopic), 5, RetrievalFilter.forPatient(patient));
    assertThat(vector).hasSize(5).allSatisfy(h -> assertThat(h.chunk().patientKey()).isEqualTo(patient));
    assertThat(rowIds(vector)).hasSize(5);

    List<SearchHit> lexical = store.lexicalSearch("blood pressure", 5, RetrievalFilter.forPatient(patient));
    assertThat(lexical).hasSize(5).allSatisfy(h -> assertThat(h.chunk().patientKey()).isEqualTo(patient));

    assertThat(store.vectorSearch(TestVectors.centroid(0), 5, RetrievalFilter.forPatient("nobody"))).isEmpty();
    assertThat(store.lexicalSearch("blood pressure", 5, RetrievalFilter.forPatient("nobody"))).isEmpty();

    // a broad filter (a third of the index, more than the candidate list) still fills k with matching hits
    List<SearchHit> broad = store.vectorSearch(TestVectors.centroid(3), 50, RetrievalFilter.forTables("labs"));
    assertThat(broad).hasSize(50).allSatisfy(h -> assertThat(h.chunk().row().table()).isEqualTo("labs"));
    List<SearchHit> broadLexical = store.lexicalSearch("clinic visit", 50, RetrievalFilter.forTables("labs"));
    assertThat(broadLexical).hasSize(50).allSatisfy(h -> assertThat(h.chunk().row().table()).isEqualTo("labs"));
    assertThat(store.countRows(LABS)).isEqualTo(labRows);
  }

  @Test
  void filtersByTableSourceRowKeyAndPatientAreExactOnBothSides() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    List<StoredChunk> all = new ArrayList<>();
    for (String source : List.of("s1", "s2")) {
      for (String table : List.of("notes", "labs")) {
        store.publish(new TableRef(source, table), 1);
        for (int i = 0; i < 5; i++) {
          RowRef r = new RowRef(source, table, "r" + i);
          String[] texts = i % 2 == 0
              ? new String[] {"shared clinical words " + table}
              : new String[] {"shared clinical words part one", "shared clinical words part two"};
          List<StoredChunk> c = chunks(r, 1, "p" + i % 3, i % 4, texts);
          all.addAll(c);
          store.upsertRow(r, 1, c);
        }
      }
    }
    store.commit(Map.of());

    List<RetrievalFilter> filters = List.of(
        RetrievalFilter.NONE,
        RetrievalFilter.forTables("notes"),
        RetrievalFilter.forTables("notes", "labs"),
        RetrievalFilter.forSources("s2"),
        RetrievalFilter.forRowKeys("r3"),
        RetrievalFilter.forRowKeys("s1:labs:r3"),
        RetrievalFilter.forRowKeys("r1", "s2:notes:r4"),
        RetrievalFilter.forPatient("p2"),
        RetrievalFilter.forTables("labs").withSources(List.of("s1")).withRowKeys(List.of("r0", "r1")),
        RetrievalFilter.forSources("s2").withPatient("p0"),
        RetrievalFilter.forTables("no-such-table"),
        RetrievalFilter.forRowKeys("s1:notes"));
    for (RetrievalFilter f : filters) {
      Set<String> expected = all.stream().filter(f::matches).map(StoredChunk::chunkId).collect(Collectors.toSet());
      assertThat(ids(store.vectorSearch(TestVectors.centroid(1), 100, f))).as("vector %s", f).isEqualTo(expected);
      assertThat(ids(store.lexicalSearch("shared clinical words", 100, f))).as("lexical %s", f).isEqualTo(expected);
    }
    assertThat(ids(store.vectorSearch(TestVectors.centroid(1), 100, null))).hasSize(all.size());
  }

  @Test
  void weightedLexicalSearchOfOneTextAtWeightOneIsThePlainSearch() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef code = new RowRef(NOTES, "code");
    RowRef phrase = new RowRef(NOTES, "phrase");
    RowRef apart = new RowRef(NOTES, "apart");
    store.publish(NOTES, 1);
    store.upsertRow(code, 1, chunks(code, 1, null, 1, "diagnosis code C50.9 malignant neoplasm of the breast"));
    store.upsertRow(phrase, 1, chunks(phrase, 1, null, 3, "biopsy confirmed breast carcinoma"));
    store.upsertRow(apart, 1, chunks(apart, 1, null, 3, "carcinoma excluded; breast exam normal"));
    store.commit(Map.of());

    for (String q : List.of("breast carcinoma", "\"breast carcinoma\"", "what is C50.9 \"C50.9\"")) {
      assertThat(store.weightedLexicalSearch(List.of(new WeightedText(q, 1)), 5, RetrievalFilter.NONE)).as(q)
          .isEqualTo(store.lexicalSearch(q, 5, RetrievalFilter.NONE));
    }
    assertThat(store.weightedLexicalSearch(List.of(), 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.weightedLexicalSearch(List.of(new WeightedText("  ", 1)), 5, RetrievalFilter.NONE)).isEmpty();
  }

  /**
   * A store that weighs terms ranks by the weighted sum (the heavier text's row first, a weight of 2 doubles the
   * score); one that cannot returns what the plain search of the joined texts returns, as the port states.
   */
  @Test
  void weightedLexicalSearchRanksByTheWeightedSumOrFallsBackToThePlainQuery() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef wheeze = new RowRef(NOTES, "wheeze");
    RowRef fracture = new RowRef(NOTES, "fracture");
    store.publish(NOTES, 1);
    store.upsertRow(wheeze, 1, chunks(wheeze, 1, null, 1, "wheezing at night, inhaler refilled"));
    store.upsertRow(fracture, 1, chunks(fracture, 1, null, 2, "fracture of the radius, cast applied"));
    store.commit(Map.of());

    List<WeightedText> wheezeHeavier = List.of(new WeightedText("wheezing", 3), new WeightedText("fracture", 1));
    List<WeightedText> fractureHeavier = List.of(new WeightedText("wheezing", 1), new WeightedText("fracture", 3));
    List<SearchHit> first = store.weightedLexicalSearch(wheezeHeavier, 5, RetrievalFilter.NONE);
    List<SearchHit> second = store.weightedLexicalSearch(fractureHeavier, 5, RetrievalFilter.NONE);
    if (!store.weighsLexicalTerms()) {
      List<SearchHit> plain = store.lexicalSearch("wheezing fracture", 5, RetrievalFilter.NONE);
      assertThat(first).isEqualTo(plain);
      assertThat(second).isEqualTo(plain);
      return;
    }
    assertRanked(first);
    assertThat(first).extracting(h -> h.chunk().row().id()).containsExactly(wheeze.id(), fracture.id());
    assertThat(second).extracting(h -> h.chunk().row().id()).containsExactly(fracture.id(), wheeze.id());
    double plain = store.lexicalSearch("wheezing", 5, RetrievalFilter.NONE).get(0).score();
    double doubled = store.weightedLexicalSearch(List.of(new WeightedText("wheezing", 2)), 5, RetrievalFilter.NONE)
        .get(0).score();
    assertThat(doubled).isCloseTo(2 * plain, org.assertj.core.data.Offset.offset(1e-5 * plain));
  }

  @Test
  void lexicalSearchSurvivesSyntaxBreakingInput() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef code = new RowRef(NOTES, "code");
    RowRef foo = new RowRef(NOTES, "foo");
    RowRef phrase = new RowRef(NOTES, "phrase");
    RowRef apart = new RowRef(NOTES, "apart");
    store.publish(NOTES, 1);
    store.upsertRow(code, 1, chunks(code, 1, null, 1, "diagnosis code C50.9 malignant neoplasm"));
    store.upsertRow(foo, 1, chunks(foo, 1, null, 2, "foo bar baz"));
    store.upsertRow(phrase, 1, chunks(phrase, 1, null, 3, "biopsy confirmed breast carcinoma"));
    store.upsertRow(apart, 1, chunks(apart, 1, null, 3, "carcinoma excluded; breast exam normal"));
    store.commit(Map.of());

    List<String> nasty = List.of("\"(foo AND", "C50.9", "title:foo", "*", "?", "foo OR", "\\", "[1 TO", "{x TO y}",
        "+-!(){}[]^\"~*?:\\/", "\"\"", "", "   ", "AND OR NOT", "foo~2", "fo*", "/regex/", "&& || !",
        "\u201Cbreast carcinoma\u201D", "\"unbalanced \"quotes\" here",
        "word ".repeat(5_000), IntStream.range(0, 3_000).mapToObj(i -> "t" + i).collect(Collectors.joining(" ")));
    for (String q : nasty) {
      assertThatCode(() -> store.lexicalSearch(q, 5, RetrievalFilter.NONE)).as(q.length() > 60 ? "long" : q)
          .doesNotThrowAnyException();
    }
    assertThat(store.lexicalSearch(null, 5, RetrievalFilter.NONE)).isEmpty();
    assertThat(rowIds(store.lexicalSearch("\"(foo AND", 5, RetrievalFilter.NONE))).containsExactly(foo.id());
    assertThat(rowIds(store.lexicalSearch("C50.9", 5, RetrievalFilter.NONE))).containsExactly(code.id());
    assertThat(rowIds(store.lexicalSearch("what is c50.9?", 5, RetrievalFilter.NONE))).containsExactly(code.id());
    // a quoted phrase matches only the adjacent words
    assertThat(rowIds(store.lexicalSearch("\"breast carcinoma\"", 5, RetrievalFilter.NONE)))
        .containsExactly(phrase.id());
    // unquoted, the terms are ORed
    assertThat(rowIds(store.lexicalSearch("breast carcinoma", 5, RetrievalFilter.NONE)))
        .containsExactlyInAnyOrder(phrase.id(), apart.id());
    assertThat(rowIds(store.lexicalSearch("neoplasm OR baz", 5, RetrievalFilter.NONE)))
        .containsExactlyInAnyOrder(code.id(), foo.id());
  }

  @Test
  void checkpointRoundTripsAcrossCloseAndReopen() throws Exception {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", 1, "chest pain evaluation"));
    Map<String, String> cp = new LinkedHashMap<>();
    cp.put("chartstream.chunks-0", "1041");
    cp.put("chartstream.chunks-1", "17");
    cp.put("odd key/with=chars", "");
    store.commit(cp);
    assertThat(store.checkpoint()).isEqualTo(cp);

    // uncommitted writes do not survive a close
    RowRef lost = new RowRef(NOTES, "lost");
    store.upsertRow(lost, 1, chunks(lost, 1, null, 1, "chest x-ray uncommitted"));
    store.deleteRow(r);
    reopen();

    assertThat(store.checkpoint()).isEqualTo(cp);
    assertThat(store.ready()).isTrue();
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(rowIds(store.lexicalSearch("chest", 5, RetrievalFilter.NONE))).containsExactly(r.id());

    // a null checkpoint keeps the previous one; a new one replaces it
    store.upsertRow(lost, 1, chunks(lost, 1, null, 1, "chest x-ray committed"));
    store.commit(null);
    assertThat(store.checkpoint()).isEqualTo(cp);
    store.commit(Map.of("chartstream.chunks-0", "1042"));
    reopen();
    assertThat(store.checkpoint()).containsExactly(Map.entry("chartstream.chunks-0", "1042"));
    assertThat(rowIds(store.lexicalSearch("chest", 5, RetrievalFilter.NONE)))
        .containsExactlyInAnyOrder(r.id(), lost.id());
  }

  @Test
  void countRowsCountsDistinctRowsOfTheActiveGeneration() {
    store.publish(NOTES, 1);
    int chunksInGen1 = 0;
    for (int i = 0; i < 12; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      String[] texts = IntStream.range(0, 1 + i % 3).mapToObj(j -> "text " + j).toArray(String[]::new);
      chunksInGen1 += texts.length;
      store.upsertRow(r, 1, chunks(r, 1, null, i % 4, texts));
    }
    for (int i = 0; i < 4; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 2, chunks(r, 2, null, 0, "x", "y"));
    }
    RowRef lab = new RowRef(LABS, "l");
    store.publish(LABS, 1);
    store.upsertRow(lab, 1, chunks(lab, 1, null, 0, "a", "b"));
    store.commit(Map.of());

    assertThat(store.countRows(NOTES)).isEqualTo(12);
    assertThat(store.countRows(LABS)).isEqualTo(1);
    assertThat(store.countRows(new TableRef("other", "notes"))).isZero();
    assertThat(store.chunkCount()).isEqualTo(chunksInGen1 + 2);

    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(store.countRows(NOTES)).isEqualTo(4);
    assertThat(store.chunkCount()).isEqualTo(8 + 2);
  }

  @Test
  void rowChunksReturnsTheActiveGenerationsChunksInChunkOrder() {
    RowRef r = new RowRef(NOTES, "long-note");
    List<StoredChunk> c = chunks(r, 1, "p9", 2, "zero", "one", "two", "three");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, List.of(c.get(2), c.get(0), c.get(3), c.get(1)));
    store.upsertRow(r, 2, chunks(r, 2, "p9", 2, "staged"));
    store.commit(Map.of());

    List<StoredChunk> got = store.rowChunks(r);
    assertThat(got).extracting(StoredChunk::chunkIndex).containsExactly(0, 1, 2, 3);
    assertThat(got).extracting(StoredChunk::text).containsExactly("zero", "one", "two", "three");
    assertThat(got).allSatisfy(x -> assertThat(x.chunkCount()).isEqualTo(4));
    assertThat(got).as("every field, the float32 vector included").containsExactlyElementsOf(c);
    assertThat(store.rowChunks(new RowRef(NOTES, "missing"))).isEmpty();
  }

  @Test
  void everyHitOfBothSidesCarriesTheVectorRowChunksReturns() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    store.publish(NOTES, 1);
    store.publish(LABS, 1);
    List<StoredChunk> written = new ArrayList<>();
    for (int batch = 0; batch < 3; batch++) {
      for (int i = 0; i < 10; i++) {
        RowRef r = new RowRef(i % 2 == 0 ? NOTES : LABS, "b" + batch + "-" + i);
        List<StoredChunk> c = chunks(r, 1, "p" + i % 3, i % 4, "cardiac follow-up " + i, "echo shows cardiac function");
        written.addAll(c);
        store.upsertRow(r, 1, c);
      }
      // several commits: the hits come from several index segments where a store has them
      store.commit(Map.of("batch", Integer.toString(batch)));
    }
    Map<String, StoredChunk> byId =
        written.stream().collect(Collectors.toMap(StoredChunk::chunkId, Function.identity()));

    List<SearchHit> vector = store.vectorSearch(TestVectors.centroid(2), 25, RetrievalFilter.NONE);
    List<SearchHit> lexical = store.lexicalSearch("cardiac echo", 25, RetrievalFilter.NONE);
    List<SearchHit> filtered = store.vectorSearch(TestVectors.centroid(1), 10, RetrievalFilter.forPatient("p1"));
    for (List<SearchHit> hits : List.of(vector, lexical, filtered)) {
      assertThat(hits).isNotEmpty().allSatisfy(h -> {
        assertThat(h.chunk().vector()).as("hit %s carries its vector", h.chunk().chunkId()).isNotNull();
        assertThat(h.chunk()).isEqualTo(byId.get(h.chunk().chunkId()));
        assertThat(h.chunk()).isIn(store.rowChunks(h.chunk().row()));
      });
    }
  }

  @Test
  void lexicalHitsOfARowShareItsWholeRowScore() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    assumeTrue(rowLevelLexicalScores(), "the store scores each chunk alone");
    store.publish(NOTES, 1);
    RowRef spread = new RowRef(NOTES, "spread");
    RowRef repeats = new RowRef(NOTES, "repeats");
    store.upsertRow(spread, 1, chunks(spread, 1, "p1", 0,
        "noonan syndrome is a genetic disorder of development",
        "short stature and webbed neck are common features"));
    store.upsertRow(repeats, 1, chunks(repeats, 1, "p2", 1, "stature stature stature charts for children"));
    store.commit(Map.of());

    List<SearchHit> hits = store.lexicalSearch("noonan syndrome short stature", 10, RetrievalFilter.NONE);

    assertThat(hits).extracting(h -> h.chunk().row().rowKey()).containsExactly("spread", "spread", "repeats");
    assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score()).isGreaterThan(hits.get(2).score());
    assertThat(hits).extracting(SearchHit::rank).containsExactly(1, 2, 3);
  }

  @Test
  void aPatientFilteredVectorSearchIsExactWhenThePatientHasMoreChunksThanTheCandidates() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    assumeTrue(exactFilteredVectorSearch(), "the store's filtered vector search is approximate");
    store.publish(NOTES, 1);
    int rows = 1_500;
    float[][] vectors = new float[rows][];
    for (int i = 0; i < rows; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      List<StoredChunk> c = chunks(r, 1, i % 3 == 0 ? "p-many" : "p" + i, i % 40, "row " + i);
      vectors[i] = c.get(0).vector();
      store.upsertRow(r, 1, c);
      if (i % 500 == 499) {
        store.commit(Map.of());
      }
    }
    store.commit(Map.of());
    float[] query = TestVectors.member(7, 99);

    List<String> expected = IntStream.range(0, rows).filter(i -> i % 3 == 0).boxed()
        .sorted(Comparator.comparingDouble((Integer i) -> -dot(query, vectors[i])))
        .limit(10).map(i -> "r" + i).toList();

    assertThat(store.vectorSearch(query, 10, RetrievalFilter.forPatient("p-many")))
        .extracting(h -> h.chunk().row().rowKey()).containsExactlyElementsOf(expected);
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void mismatchingVectorDimensionIsRejectedWithAClearMessage() throws Exception {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, 0, "sixteen dimensions"));
    store.commit(Map.of());

    RowRef other = new RowRef(NOTES, "other");
    float[] eight = TestVectors.centroid(0, 8);
    StoredChunk wrong = chunk(other, 1, 0, 1, "eight dimensions", eight, null);
    assertThatThrownBy(() -> store.upsertRow(other, 1, List.of(wrong)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension").hasMessageContaining("16");
    assertThatThrownBy(() -> store.vectorSearch(eight, 5, RetrievalFilter.NONE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    reopen();
    assertThatThrownBy(() -> store.upsertRow(other, 1, List.of(wrong)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
  }

  @Test
  void invalidUpsertsAreRejected() {
    RowRef r = new RowRef(NOTES, "r");
    RowRef other = new RowRef(NOTES, "other");
    assertThatThrownBy(() -> store.upsertRow(r, 1, chunks(other, 1, null, 0, "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.upsertRow(r, 2, chunks(r, 1, null, 0, "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.upsertRow(r, 1, List.of(chunk(r, 1, 0, 1, "x", new float[TestVectors.DIM], null))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.upsertRow(r, 1, List.of(chunk(r, 1, 0, 1, "x", null, null))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.vectorSearch(TestVectors.centroid(0), 0, RetrievalFilter.NONE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.lexicalSearch("x", 0, RetrievalFilter.NONE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void upsertWithNoChunksRemovesTheRowFromThatGenerationOnly() {
    assumeTrue(vectorAndLexicalSearch(), "the server cannot search");
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, 0, "gout flare"));
    store.upsertRow(r, 2, chunks(r, 2, null, 0, "gout flare staged"));
    store.commit(Map.of());
    store.upsertRow(r, 1, List.of());
    store.commit(Map.of());
    assertThat(store.lexicalSearch("gout", 5, RetrievalFilter.NONE)).isEmpty();
    store.publish(NOTES, 2);
    store.commit(Map.of());
    assertThat(rowIds(store.lexicalSearch("gout", 5, RetrievalFilter.NONE))).containsExactly(r.id());
  }

  @Test
  void rowsWithTermFindsEveryActiveRowHoldingTheTermWithinTheFilterUpToTheCap() {
    TermIndex terms = terms();
    TableRef meds = new TableRef("clinic", "meds");
    store.publish(meds, 1);
    store.publish(NOTES, 1);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      RowRef r = new RowRef(meds, String.format("m%02d", i));
      String text = i % 3 == 0 ? "description: Lisinopril 10 MG Oral Tablet" : "description: Simvastatin 20 MG Oral Tablet";
      store.upsertRow(r, 1, chunks(r, 1, "patient-" + i % 7, i % 4, text));
      if (i % 3 == 0) {
        expected.add(r.id());
      }
    }
    RowRef note = new RowRef(NOTES, "n1");
    // the term in the second chunk: the row is found by that chunk
    List<StoredChunk> noteChunks = chunks(note, 1, "patient-1", 2, "chief complaint: cough", "plan: continue lisinopril daily");
    store.upsertRow(note, 1, noteChunks);
    RowRef staged = new RowRef(NOTES, "staged");
    store.upsertRow(staged, 2, chunks(staged, 2, "patient-1", 2, "lisinopril in a generation not yet published"));
    store.commit(Map.of());
    expected.add(note.id());
    expected.sort(Comparator.naturalOrder());

    TermIndex.TermRows all = terms.rowsWithTerm("LISINOPRIL", RetrievalFilter.NONE, 500);
    assertThat(all.rows()).extracting(c -> c.row().id()).containsExactlyElementsOf(expected);
    assertThat(all.total()).isEqualTo(expected.size());
    assertThat(all.capped()).isFalse();
    assertThat(all.rows()).filteredOn(c -> c.row().equals(note)).singleElement()
        .satisfies(c -> assertThat(c.chunkId()).isEqualTo(noteChunks.get(1).chunkId()));

    TermIndex.TermRows capped = terms.rowsWithTerm("lisinopril", RetrievalFilter.NONE, 5);
    assertThat(capped.rows()).extracting(c -> c.row().id()).containsExactlyElementsOf(expected.subList(0, 5));
    assertThat(capped.total()).isEqualTo(expected.size());
    assertThat(capped.capped()).isTrue();

    assertThat(terms.rowsWithTerm("lisinopril", RetrievalFilter.forTables("meds"), 500).rows())
        .hasSize(20).allSatisfy(c -> assertThat(c.row().table()).isEqualTo("meds"));
    assertThat(terms.rowsWithTerm("lisinopril", RetrievalFilter.forPatient("patient-1"), 500).rows())
        .isNotEmpty().allSatisfy(c -> assertThat(c.patientKey()).isEqualTo("patient-1"));
    assertThat(terms.rowsWithTerm("lisinopri", RetrievalFilter.NONE, 500).rows()).as("a prefix is no match").isEmpty();
    assertThat(terms.rowsWithTerm("the", RetrievalFilter.NONE, 500).total()).isZero();
    assertThat(terms.holds("Lisinopril")).isTrue();
    assertThat(terms.holds("zolmitriptan")).isFalse();
    assertThatThrownBy(() -> terms.rowsWithTerm("lisinopril", RetrievalFilter.NONE, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rowsWithTermMatchesCodesWholeAndFoldsAccentsAndCase() {
    TermIndex terms = terms();
    TableRef conditions = new TableRef("clinic", "conditions");
    store.publish(conditions, 1);
    String[][] rows = {
        {"c1", "icd10 code: E11.9\ndescription: Diabetes mellitus type 2"},
        {"c2", "icd10 code: E11.91\ndescription: something else"},
        {"c3", "icd10 code: E11\ndescription: a category"},
        {"c4", "patient: Elizabéth Róss (MRN-000009)\nicd10 code: e11.9"},
    };
    for (String[] row : rows) {
      RowRef r = new RowRef(conditions, row[0]);
      store.upsertRow(r, 1, chunks(r, 1, "p-" + row[0], 1, row[1]));
    }
    store.commit(Map.of());
    assertThat(terms.rowsWithTerm("E11.9", RetrievalFilter.NONE, 10).rows()).extracting(c -> c.row().rowKey())
        .containsExactly("c1", "c4");
    assertThat(terms.rowsWithTerm("Elizabeth", RetrievalFilter.NONE, 10).rows()).extracting(c -> c.row().rowKey())
        .containsExactly("c4");
    assertThat(terms.rowsWithTerm("RÓSS", RetrievalFilter.NONE, 10).rows()).extracting(c -> c.row().rowKey())
        .containsExactly("c4");
    assertThat(terms.rowsWithTerm("Elizabeth Ross", RetrievalFilter.NONE, 10).rows()).extracting(c -> c.row().rowKey())
        .containsExactly("c4");
  }

  @Test
  void similarWordsAreIndexedWordsOneOrTwoEditsAwayAsRecordsWriteThem() {
    TermIndex terms = terms();
    assumeTrue(similarIndexedWords(), "the store has no term dictionary to walk");
    TableRef meds = new TableRef("clinic", "meds");
    store.publish(meds, 1);
    String[] texts = {"Lisinopril 10 MG Oral Tablet", "lisinopril 20 MG", "Metformin 500 MG", "Lisinopryl imaginary",
        "Losartan 50 MG"};
    for (int i = 0; i < texts.length; i++) {
      RowRef r = new RowRef(meds, "m" + i);
      store.upsertRow(r, 1, chunks(r, 1, "p" + i, 1, texts[i]));
    }
    RowRef staged = new RowRef(meds, "staged");
    store.upsertRow(staged, 2, chunks(staged, 2, "p9", 1, "metforman in an unpublished generation"));
    store.commit(Map.of());

    assertThat(terms.similarWords("lisinoprl", 2, 5)).first().isEqualTo("Lisinopril");
    assertThat(terms.similarWords("lisinoprl", 2, 5)).contains("Lisinopryl");
    assertThat(terms.similarWords("metforminn", 2, 5)).containsExactly("Metformin");
    assertThat(terms.similarWords("metformin", 2, 5)).as("the word itself is no suggestion")
        .doesNotContain("Metformin", "metformin", "metforman");
    assertThat(terms.similarWords("zolmitriptan", 2, 5)).isEmpty();
    assertThat(terms.similarWords("lisinoprill", 2, 5)).as("a word no record writes, however the store stems it")
        .first().isEqualTo("Lisinopril");
    assertThatThrownBy(() -> terms.similarWords("x", 3, 5)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void patientsNamedFindsEachPatientOnceByTheFoldedWordsOfItsLabelOrKeyWithinTheFilter() {
    TableRef patients = new TableRef("clinic", "patients");
    store.publish(patients, 1);
    store.publish(NOTES, 1);
    PatientLabel ross = new PatientLabel("MRN-7", "Elizabéth Róss", 1961);
    PatientLabel jackson = new PatientLabel("MRN-12", "Sophia Jackson", 1980);
    PatientLabel brown = new PatientLabel("MRN-31", "Sophia Brown", null);
    // the texts name nobody: a patient is found by the chunk's label, never by its text
    labelledRow(patients, "p7", 1, "MRN-7", ross, "record: patients\nsex: female");
    labelledRow(patients, "p12", 1, "MRN-12", jackson, "record: patients\nfirst part", "second part");
    labelledRow(patients, "p31", 1, "MRN-31", brown, "record: patients\npatient: Grace Hollis (MRN-99)");
    labelledRow(patients, "p99", 1, "MRN-99", null, "record: patients\nwritten before chunks carried labels");
    labelledRow(NOTES, "n1", 1, "MRN-12", jackson, "record: notes\nvisit for a cough");
    labelledRow(patients, "staged", 2, "MRN-40", new PatientLabel("MRN-40", "Sophia Staged", 1990), "record: patients");
    store.commit(Map.of());
    RetrievalFilter patientTable = RetrievalFilter.forTables("patients");

    assertThat(store.patientsNamed(Set.of("sophia"), 10, patientTable)).containsExactly(
        new IndexedPatient("MRN-12", jackson), new IndexedPatient("MRN-31", brown));
    assertThat(store.patientsNamed(Set.of("ross", "nobody"), 10, patientTable))
        .containsExactly(new IndexedPatient("MRN-7", ross));
    assertThat(store.patientsNamed(Set.of("mrn-7"), 10, patientTable)).extracting(IndexedPatient::patientKey)
        .containsExactly("MRN-7");
    assertThat(store.patientsNamed(Set.of("grace", "hollis", "female", "patients"), 10, patientTable)).isEmpty();
    assertThat(store.patientsNamed(Set.of("mrn-99"), 10, patientTable))
        .containsExactly(new IndexedPatient("MRN-99", null));
    assertThat(store.patientsNamed(Set.of("sophia"), 1, patientTable)).extracting(IndexedPatient::patientKey)
        .containsExactly("MRN-12");
    assertThat(store.patientsNamed(Set.of("sophia", "brown"), 1, patientTable)).as("most of the words first")
        .containsExactly(new IndexedPatient("MRN-31", brown));
    assertThat(store.patientsNamed(Set.of("jackson"), 10, RetrievalFilter.NONE)).as("one entry for all of its rows")
        .containsExactly(new IndexedPatient("MRN-12", jackson));
    assertThat(store.patientsNamed(Set.of("jackson"), 10, RetrievalFilter.forTables("notes")))
        .containsExactly(new IndexedPatient("MRN-12", jackson));
    assertThat(store.rowChunks(new RowRef(patients, "p12"))).extracting(StoredChunk::patient).containsOnly(jackson);
    assertThatThrownBy(() -> store.patientsNamed(Set.of("sophia"), 0, patientTable))
        .isInstanceOf(IllegalArgumentException.class);

    store.deleteRow(new RowRef(patients, "p31"));
    store.commit(Map.of());
    assertThat(store.patientsNamed(Set.of("sophia"), 10, patientTable)).extracting(IndexedPatient::patientKey)
        .containsExactly("MRN-12");
  }

  private void labelledRow(TableRef table, String rowKey, long generation, String patient, PatientLabel label,
      String... texts) {
    RowRef row = new RowRef(table, rowKey);
    List<StoredChunk> chunks = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      chunks.add(ChunkFixture.of(row).generation(generation).index(i, texts.length).text(texts[i]).patient(patient)
          .label(label).vector(vectorFor(row, generation, i, 1)).build());
    }
    store.upsertRow(row, generation, chunks);
  }

  @Test
  void closedStoreRejectsCalls() {
    store.close();
    assertThat(store.ready()).isFalse();
    assertThatThrownBy(() -> store.lexicalSearch("x", 5, RetrievalFilter.NONE))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> store.commit(Map.of())).isInstanceOf(IllegalStateException.class);
    store.close(); // idempotent
    store = null;
  }
}
