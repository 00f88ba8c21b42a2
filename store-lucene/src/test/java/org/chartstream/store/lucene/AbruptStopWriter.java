package org.chartstream.store.lucene;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TestVectors;

/**
 * Run in a child JVM by {@link LuceneHybridStoreTest}: commits a batch, writes (and flushes to segment files) a
 * second, uncommitted batch, then halts the JVM without closing anything, as a killed process would.
 */
public final class AbruptStopWriter {

  static final TableRef NOTES = new TableRef("clinic", "notes");
  static final int COMMITTED_ROWS = 20;

  private AbruptStopWriter() {}

  static StoredChunk chunk(RowRef row, long gen, String text, int topic) {
    return ChunkFixture.of(row).generation(gen).text(text)
        .vector(TestVectors.member(topic, row.id().hashCode() * 31L + gen)).patient(null).source("lsn/" + gen, 0L)
        .build();
  }

  public static void main(String[] args) {
    LuceneHybridStore store = LuceneHybridStore.open(Path.of(args[0]));
    store.publish(NOTES, 1);
    for (int i = 0; i < COMMITTED_ROWS; i++) {
      RowRef r = new RowRef(NOTES, "c" + i);
      store.upsertRow(r, 1, List.of(chunk(r, 1, "committed row " + i, i % 4)));
    }
    store.commit(Map.of("offset", Integer.toString(COMMITTED_ROWS)));

    for (int i = 0; i < 30; i++) {
      RowRef r = new RowRef(NOTES, "u" + i);
      store.upsertRow(r, 1, List.of(chunk(r, 1, "uncommitted row " + i, i % 4)));
      RowRef g2 = new RowRef(NOTES, "c" + i);
      store.upsertRow(g2, 2, List.of(chunk(g2, 2, "uncommitted generation two " + i, i % 4)));
    }
    store.deleteRow(new RowRef(NOTES, "c0"));
    store.publish(NOTES, 2);
    store.flushWithoutCommit();
    System.out.println("HALTING");
    System.out.flush();
    Runtime.getRuntime().halt(137);
  }
}
