package org.chartstream.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkFixtureTest {
  private static final RowRef ROW = new RowRef("clinic", "notes", "n1");

  @Test
  void aChunksIdFollowsTheDesignFromItsRowIndexAndGeneration() {
    StoredChunk c = ChunkFixture.of(ROW).index(1, 3).generation(4).text("plan").build();

    assertThat(c.chunkId()).isEqualTo("clinic:notes:n1:1:4");
    assertThat(c).extracting(StoredChunk::chunkIndex, StoredChunk::chunkCount, StoredChunk::generation,
        StoredChunk::text, StoredChunk::patientKey, StoredChunk::modelId)
        .containsExactly(1, 3, 4L, "plan", "p1", ChunkFixture.MODEL);
  }

  @Test
  void aRowIsOneChunkPerTextInOrder() {
    List<StoredChunk> row = ChunkFixture.of(ROW).patient(null).rowOf("a", "b", "c");

    assertThat(row).extracting(StoredChunk::chunkIndex).containsExactly(0, 1, 2);
    assertThat(row).extracting(StoredChunk::text).containsExactly("a", "b", "c");
    assertThat(row).allMatch(c -> c.chunkCount() == 3 && c.patientKey() == null && c.vector() == null);
  }

  @Test
  void theSameFixtureGivesEqualChunks() {
    ChunkFixture f = ChunkFixture.of(ROW).vector(new float[] {1, 0});

    assertThat(f.build()).isEqualTo(f.build());
    assertThat(f.source("lsn:9", 5L).build().sourcePosition()).isEqualTo("lsn:9");
  }
}
