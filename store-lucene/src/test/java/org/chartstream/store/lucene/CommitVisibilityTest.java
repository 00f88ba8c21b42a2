package org.chartstream.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.chartstream.core.store.RowRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Searches move to a commit's state as the commit starts, not after its fsyncs. */
class CommitVisibilityTest {

  /** A directory whose fsyncs wait until released, once armed. */
  private static final class HeldSyncDirectory extends FilterDirectory {
    private final CountDownLatch syncing = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean armed;

    HeldSyncDirectory(Path dir) throws IOException {
      super(FSDirectory.open(dir));
    }

    @Override
    public void sync(Collection<String> names) throws IOException {
      if (armed) {
        syncing.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      super.sync(names);
    }
  }

  @Test
  void aCommitsWritesAreSearchableWhileItsFsyncsAreStillRunning(@TempDir Path dir) throws Exception {
    ExecutorService merges = Executors.newSingleThreadExecutor();
    EnglishAnalyzer analyzer = new EnglishAnalyzer();
    HeldSyncDirectory directory = new HeldSyncDirectory(dir);
    IndexWriter indexWriter = LuceneStoreWriter.openIndexWriter(directory, dir, LuceneSchema.indexAnalyzer(analyzer),
        LuceneSchema.codec(LuceneSchema.vectorsFormat(merges)));
    try {
      LuceneStoreWriter.initialiseIfNew(indexWriter);
      SnapshotManager snapshots = new SnapshotManager(indexWriter, CommittedState.of(indexWriter.getLiveCommitData()));
      LuceneStoreWriter writer = new LuceneStoreWriter(dir, indexWriter, snapshots, 1024);
      LuceneStoreSearcher searcher = new LuceneStoreSearcher(dir, snapshots, analyzer);
      RowRef row = new RowRef(AbruptStopWriter.NOTES, "n1");
      writer.publish(AbruptStopWriter.NOTES, 1);
      writer.upsertRow(row, 1, List.of(AbruptStopWriter.chunk(row, 1, "started lisinopril", 0)));
      directory.armed = true;

      Thread commit = new Thread(() -> writer.commit(Map.of("offset", "1")), "commit");
      commit.start();
      assertThat(directory.syncing.await(30, TimeUnit.SECONDS)).as("the commit reached its fsync").isTrue();

      assertThat(searcher.rowChunks(row)).extracting(c -> c.text()).containsExactly("started lisinopril");
      assertThat(commit.isAlive()).as("the commit still waits for its fsync").isTrue();
      directory.release.countDown();
      commit.join(30_000);
      assertThat(commit.isAlive()).isFalse();
      assertThat(indexWriter.getLiveCommitData()).isNotNull();
    } finally {
      directory.release.countDown();
      indexWriter.close();
      directory.close();
      analyzer.close();
      merges.shutdownNow();
    }
  }
}
