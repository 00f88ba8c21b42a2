package org.chartstream.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RowSetContract;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.junit.jupiter.api.Test;

class LuceneHybridStoreTest extends RowSetContract {

  @Override
  protected HybridStore openStore(Path location) {
    return LuceneHybridStore.open(location);
  }

  /** Reads the last commit of {@code dir} with a plain reader, independent of the store. */
  private static <T> T withCommittedReader(Path dir, ReaderFn<T> fn) throws IOException {
    try (Directory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
      return fn.apply(r);
    }
  }

  private interface ReaderFn<T> {
    T apply(DirectoryReader r) throws IOException;
  }

  @Test
  void theVectorSearchBeamGrowsWithTheIndexWithinItsBounds() {
    assertThat(LuceneStoreSearcher.candidates(10, 1_000)).isEqualTo(50);
    assertThat(LuceneStoreSearcher.candidates(30, 1_000)).isEqualTo(150);
    assertThat(LuceneStoreSearcher.candidates(10, 100_000)).isEqualTo(50);
    assertThat(LuceneStoreSearcher.candidates(10, 1_000_000)).isEqualTo(300);
    assertThat(LuceneStoreSearcher.candidates(10, 100_000_000)).isEqualTo(1_000);
  }

  @Test
  void rowsTiedAtTheCutAreChosenByRowKeyNotByTheOrderTheyWereWritten() {
    store.publish(NOTES, 1);
    for (String key : List.of("r4", "r3", "r2", "r1")) {
      RowRef row = new RowRef(NOTES, key);
      store.upsertRow(row, 1, chunks(row, 1, "p1", 0, "Aspirin 81 mg daily."));
    }
    store.commit(Map.of());

    assertThat(store.lexicalSearch("aspirin", 2, RetrievalFilter.NONE))
        .extracting(h -> h.chunk().row().rowKey()).containsExactly("r1", "r2");
    assertThat(store.lexicalSearch("aspirin", 4, RetrievalFilter.NONE))
        .extracting(h -> h.chunk().row().rowKey()).containsExactly("r1", "r2", "r3", "r4");
  }

  @Test
  void aRowFoundOnlyByItsWholeTextIsCitedByItsHeadChunk() {
    store.publish(NOTES, 1);
    RowRef across = new RowRef(NOTES, "across");
    RowRef within = new RowRef(NOTES, "within");
    // the phrase spans the boundary between the row's two chunks: no single chunk holds it
    store.upsertRow(across, 1, chunks(across, 1, "p1", 0, "family history of breast", "carcinoma in two aunts"));
    store.upsertRow(within, 1, chunks(within, 1, "p2", 1, "screening visit", "breast carcinoma excluded"));
    store.commit(Map.of());

    List<SearchHit> hits = store.lexicalSearch("\"breast carcinoma\"", 10, RetrievalFilter.NONE);

    assertThat(hits).extracting(h -> h.chunk().row().rowKey()).containsExactlyInAnyOrder("across", "within");
    assertThat(hits).filteredOn(h -> h.chunk().row().equals(across)).singleElement()
        .satisfies(h -> assertThat(h.chunk()).isEqualTo(store.rowChunks(across).get(0)));
    assertThat(hits).filteredOn(h -> h.chunk().row().equals(within)).singleElement()
        .satisfies(h -> assertThat(h.chunk().chunkIndex()).isEqualTo(1));
  }

  @Test
  void aRowWhoseOpeningNamesTheQueryTermsOutranksOneThatMentionsThemLater() {
    store.publish(NOTES, 1);
    RowRef aboutIt = new RowRef(NOTES, "about");
    RowRef mentionsIt = new RowRef(NOTES, "mentions");
    String filler = " The report lists findings, dates and follow-up plans for the clinic team.";
    store.upsertRow(aboutIt, 1, chunks(aboutIt, 1, "p1", 0,
        "What is Noonan syndrome? A genetic disorder." + filler.repeat(3)));
    store.upsertRow(mentionsIt, 1, chunks(mentionsIt, 1, "p2", 1,
        "Cardiology review of a murmur." + filler.repeat(2) + " Noonan syndrome was considered and excluded."));
    store.commit(Map.of());

    assertThat(store.lexicalSearch("noonan syndrome", 10, RetrievalFilter.NONE))
        .extracting(h -> h.chunk().row().rowKey()).containsExactly("about", "mentions");
  }

  @Test
  void aRefreshMakesWritesAndAGenerationSwitchSearchableButOnlyACommitMakesThemDurable() throws Exception {
    RowRef a = new RowRef(NOTES, "a");
    store.publish(NOTES, 1);
    store.upsertRow(a, 1, chunks(a, 1, null, 1, "committed sinusitis"));
    store.commit(Map.of("offset", "1"));
    RowRef b = new RowRef(NOTES, "b");
    store.upsertRow(b, 2, chunks(b, 2, null, 1, "refreshed sinusitis"));
    store.publish(NOTES, 2);

    store.refresh();

    assertThat(store.lexicalSearch("sinusitis", 10, RetrievalFilter.NONE)).extracting(h -> h.chunk().row()).containsExactly(b);
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 2L));
    assertThat(store.checkpoint()).containsExactly(Map.entry("offset", "1"));

    reopen();
    assertThat(store.checkpoint()).containsExactly(Map.entry("offset", "1"));
    assertThat(store.activeGenerations()).containsExactly(Map.entry(NOTES, 1L));
    assertThat(store.lexicalSearch("sinusitis", 10, RetrievalFilter.NONE)).extracting(h -> h.chunk().row()).containsExactly(a);
  }

  @Test
  void theLastCommittedCheckpointIsReadWhileTheStoreIsOpenAndIgnoresWhatIsOnlyRefreshed() {
    Path dir = tempDir.resolve("watched");
    assertThat(LuceneHybridStore.lastCommittedCheckpoint(dir)).as("no commit yet").isEmpty();
    try (LuceneHybridStore watched = LuceneHybridStore.open(dir)) {
      RowRef a = new RowRef(NOTES, "a");
      watched.upsertRow(a, 1, chunks(a, 1, null, 1, "committed sinusitis"));
      watched.commit(Map.of("offset", "1"));
      watched.upsertRow(a, 1, chunks(a, 1, null, 1, "refreshed sinusitis"));
      watched.refresh();

      assertThat(LuceneHybridStore.lastCommittedCheckpoint(dir)).containsExactly(Map.entry("offset", "1"));
      watched.commit(Map.of("offset", "2"));
      assertThat(LuceneHybridStore.lastCommittedCheckpoint(dir)).containsExactly(Map.entry("offset", "2"));
    }
  }

  @Test
  void reopenAfterTheWritingProcessWasHaltedShowsTheLastCommitOnly() throws Exception {
    store.close();
    store = null;
    Path dir = tempDir.resolve("halted");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-Xmx256m", "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
        AbruptStopWriter.class.getName(), dir.toString())
        .redirectErrorStream(true)
        .start();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(output).isEqualTo(137);
    assertThat(output).contains("HALTING");

    // the halted process left segment files on disk that its last commit does not reference
    Set<String> onDisk;
    Set<String> committed;
    try (Directory d = FSDirectory.open(dir)) {
      onDisk = new HashSet<>(List.of(d.listAll()));
      committed = new HashSet<>(SegmentInfos.readLatestCommit(d).files(true));
    }
    onDisk.remove(IndexWriter.WRITE_LOCK_NAME);
    assertThat(onDisk).as("uncommitted files exist").isNotEqualTo(committed).containsAll(committed);

    // the dead process's native lock is gone: the directory opens, at the last commit
    store = LuceneHybridStore.open(dir);
    assertThat(store.checkpoint()).containsExactly(Map.entry("offset", "20"));
    assertThat(store.activeGenerations()).containsExactly(Map.entry(AbruptStopWriter.NOTES, 1L));
    assertThat(store.countRows(AbruptStopWriter.NOTES)).isEqualTo(AbruptStopWriter.COMMITTED_ROWS);
    assertThat(store.lexicalSearch("uncommitted", 50, RetrievalFilter.NONE)).isEmpty();
    assertThat(store.rowChunks(new RowRef(AbruptStopWriter.NOTES, "c0"))).hasSize(1);

    // and keeps working
    RowRef r = new RowRef(AbruptStopWriter.NOTES, "after");
    store.upsertRow(r, 1, List.of(AbruptStopWriter.chunk(r, 1, "written after restart", 1)));
    store.commit(Map.of("offset", "21"));
    assertThat(store.countRows(AbruptStopWriter.NOTES)).isEqualTo(AbruptStopWriter.COMMITTED_ROWS + 1);
  }

  @Test
  void aCopyOfALiveDirectoryWithFlushedUncommittedSegmentsOpensAtTheLastCommit() throws Exception {
    RowRef a = new RowRef(NOTES, "a");
    store.publish(NOTES, 1);
    store.upsertRow(a, 1, chunks(a, 1, null, 1, "committed sinusitis"));
    store.commit(Map.of("offset", "1"));
    RowRef b = new RowRef(NOTES, "b");
    store.upsertRow(b, 1, chunks(b, 1, null, 1, "uncommitted sinusitis"));
    ((LuceneHybridStore) store).flushWithoutCommit();

    Path copy = tempDir.resolve("copy");
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(location())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().equals(IndexWriter.WRITE_LOCK_NAME)) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    try (LuceneHybridStore second = LuceneHybridStore.open(copy)) {
      assertThat(second.checkpoint()).containsExactly(Map.entry("offset", "1"));
      List<SearchHit> hits = second.lexicalSearch("sinusitis", 10, RetrievalFilter.NONE);
      assertThat(hits).extracting(h -> h.chunk().row()).containsExactly(a);
    }
  }

  @Test
  void aSecondStoreOnTheSameDirectoryIsRejected() {
    assertThatThrownBy(() -> LuceneHybridStore.open(location()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");
  }

  @Test
  void commitUserDataHoldsCheckpointActiveGenerationsAndDimension() throws Exception {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 3);
    store.upsertRow(r, 3, chunks(r, 3, null, 1, "x"));
    store.commit(Map.of("chunks-0", "5"));
    Map<String, String> data = withCommittedReader(location(), rd -> rd.getIndexCommit().getUserData());
    assertThat(data)
        .containsEntry(LuceneSchema.META_DIMENSION, "16")
        .containsEntry(LuceneSchema.generationKey(NOTES), "3")
        .containsEntry(LuceneSchema.CHECKPOINT_PREFIX + "chunks-0", "5")
        .containsEntry(LuceneSchema.META_FORMAT, LuceneSchema.FORMAT_VERSION);
  }

  @Test
  void publishRemovesSupersededChunksInTheSameCommit() throws Exception {
    store.publish(NOTES, 1);
    for (int i = 0; i < 5; i++) {
      RowRef r = new RowRef(NOTES, "r" + i);
      store.upsertRow(r, 1, chunks(r, 1, null, 1, "one", "two"));
      store.upsertRow(r, 2, chunks(r, 2, null, 1, "new"));
    }
    RowRef lab = new RowRef(LABS, "l");
    store.publish(LABS, 1);
    store.upsertRow(lab, 1, chunks(lab, 1, null, 1, "lab"));
    store.commit(Map.of());
    assertThat(countGeneration(1)).isEqualTo(11);

    store.publish(NOTES, 2);
    assertThat(countGeneration(1)).as("not before the commit").isEqualTo(11);
    store.commit(Map.of());
    assertThat(countGeneration(1)).as("only the other table's generation 1 is left").isEqualTo(1);
    assertThat(countGeneration(2)).isEqualTo(5);
  }

  @Test
  void rowWritesFromSeveralThreadsAllLandInOneCommit() throws Exception {
    int threads = 4;
    int rowsPerThread = 500;
    store.publish(NOTES, 1);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < rowsPerThread; i++) {
            RowRef r = new RowRef(NOTES, thread + "-" + i);
            store.upsertRow(r, 1, chunks(r, 1, null, i % 4, "concurrent row " + i));
          }
        }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(store.countRows(NOTES)).isZero();
    store.commit(Map.of());
    assertThat(store.countRows(NOTES)).isEqualTo(threads * rowsPerThread);
    assertThat(store.rowChunks(new RowRef(NOTES, "3-499"))).hasSize(1);
  }

  @Test
  void aCommitThatOnlyMovesTheCheckpointIsVisibleAtOnce() {
    RowRef r = new RowRef(NOTES, "r");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, 1, "x"));
    store.commit(Map.of("offset", "1"));
    for (int i = 2; i < 5; i++) {
      store.commit(Map.of("offset", Integer.toString(i)));
      assertThat(store.checkpoint()).containsExactly(Map.entry("offset", Integer.toString(i)));
    }
    assertThat(store.countRows(NOTES)).isEqualTo(1);
  }

  @Test
  void searchesSeeEachCommitWithoutReopeningTheDirectory() throws Exception {
    store.publish(NOTES, 1);
    for (int batch = 0; batch < 5; batch++) {
      RowRef r = new RowRef(NOTES, "b" + batch);
      store.upsertRow(r, 1, chunks(r, 1, null, 1, "batch " + batch));
      store.commit(Map.of("batch", Integer.toString(batch)));
      assertThat(store.countRows(NOTES)).isEqualTo(batch + 1);
    }
    // the committed state on disk and the near-real-time view agree
    int committedDocs = withCommittedReader(location(), DirectoryReader::numDocs);
    assertThat(committedDocs).isEqualTo(5);
    assertThat(((LuceneHybridStore) store).searchableSegments()).isPositive();
  }

  @Test
  void anIndexWrittenByLucene9IsDeletedOnOpenAndTheStoreOpensEmptyForARebuildFromTheLog() throws Exception {
    store.close();
    store = null;
    Path old = tempDir.resolve("lucene9");
    copyResourceIndex("lucene9-index", old);

    try (LuceneHybridStore rebuilt = LuceneHybridStore.open(old)) {
      assertThat(rebuilt.rebuildReason()).hasValueSatisfying(r -> assertThat(r).contains("Lucene912").contains("rebuilt"));
      assertThat(rebuilt.checkpoint()).as("no checkpoint: the materialiser replays the log from the start").isEmpty();
      assertThat(rebuilt.activeGenerations()).isEmpty();
      RowRef r = new RowRef(NOTES, "replayed");
      rebuilt.publish(NOTES, 1);
      rebuilt.upsertRow(r, 1, chunks(r, 1, "p1", 2, "diabetes mellitus type 2"));
      rebuilt.commit(Map.of("offset", "3"));
    }
    try (LuceneHybridStore reopened = LuceneHybridStore.open(old)) {
      assertThat(reopened.rebuildReason()).isEmpty();
      assertThat(reopened.checkpoint()).containsExactly(Map.entry("offset", "3"));
      assertThat(reopened.lexicalSearch("diabetes", 5, RetrievalFilter.NONE))
          .extracting(h -> h.chunk().row().rowKey()).containsExactly("replayed");
    }
  }

  @Test
  void anIndexOfTheFormatBeforeAccentFoldingIsDeletedOnOpenAndRebuiltFromTheLog() throws Exception {
    RowRef r = new RowRef(NOTES, "accented");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", 2, "patient: Elizabéth Róss"));
    store.commit(Map.of("offset", "7"));
    store.close();
    store = null;
    // what a store of format 1 left: the same index with the old format in its commit data
    try (Directory d = FSDirectory.open(location());
        IndexWriter w = new IndexWriter(d, new org.apache.lucene.index.IndexWriterConfig()
            .setOpenMode(org.apache.lucene.index.IndexWriterConfig.OpenMode.APPEND))) {
      Map<String, String> data = new java.util.HashMap<>(SegmentInfos.readLatestCommit(d).getUserData());
      data.put(LuceneSchema.META_FORMAT, "1");
      w.setLiveCommitData(data.entrySet());
      w.commit();
    }

    store = LuceneHybridStore.open(location());

    assertThat(store.rebuildReason()).hasValueSatisfying(reason ->
        assertThat(reason).contains("store format 1").contains("format " + LuceneSchema.FORMAT_VERSION).contains("rebuilt"));
    assertThat(store.checkpoint()).isEmpty();
    assertThat(store.activeGenerations()).isEmpty();
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, "p1", 2, "patient: Elizabéth Róss"));
    store.commit(Map.of("offset", "7"));
    assertThat(store.lexicalSearch("Elizabeth Ross", 5, RetrievalFilter.NONE))
        .extracting(h -> h.chunk().row().rowKey()).containsExactly("accented");
    reopen();
    assertThat(store.rebuildReason()).isEmpty();
  }

  @Test
  void aCurrentIndexIsKept() throws Exception {
    RowRef r = new RowRef(NOTES, "kept");
    store.publish(NOTES, 1);
    store.upsertRow(r, 1, chunks(r, 1, null, 1, "kept"));
    store.commit(Map.of("offset", "1"));

    reopen();

    assertThat(store.rebuildReason()).isEmpty();
    assertThat(store.countRows(NOTES)).isEqualTo(1);
  }

  private static void copyResourceIndex(String name, Path to) throws IOException {
    Files.createDirectories(to);
    for (String file : List.of("_0.cfe", "_0.cfs", "_0.si", "segments_2")) {
      try (var in = LuceneHybridStoreTest.class.getResourceAsStream("/" + name + "/" + file)) {
        assertThat(in).as("test resource %s/%s", name, file).isNotNull();
        Files.copy(in, to.resolve(file));
      }
    }
  }

  private long countGeneration(long generation) throws IOException {
    return withCommittedReader(location(),
        r -> (long) new IndexSearcher(r).count(LongPoint.newExactQuery(LuceneSchema.F_GENERATION, generation)));
  }
}
