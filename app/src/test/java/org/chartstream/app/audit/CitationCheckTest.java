package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.chartstream.store.RowRef;
import org.chartstream.store.StoredChunk;
import org.junit.jupiter.api.Test;

class CitationCheckTest {
    private static final RowRef ROW = new RowRef("ehr", "medications", "900001");

    private static StoredChunk chunk(int index, int count, long generation, String position) {
        return new StoredChunk(StoredChunk.chunkId(ROW, index, generation), ROW, index, count, generation, "text", null,
                null, position, 0L, "model");
    }

    @Test
    void aChunkIdParsesIntoRowChunkAndGenerationEvenWhenTheRowKeyHoldsColons() {
        CitedRow cited = CitedRow.of("ehr:encounters:a:b|c:2:7", 7, "lsn:1");
        assertThat(cited.row()).isEqualTo(new RowRef("ehr", "encounters", "a:b|c"));
        assertThat(cited.chunkIndex()).isEqualTo(2);
        assertThat(cited.rowId()).isEqualTo("ehr:encounters:a:b|c");
        assertThatThrownBy(() -> CitedRow.of("ehr:medications", 1, "")).hasMessageContaining("is not source:table:rowKey");
        assertThatThrownBy(() -> CitedRow.of("ehr:medications:1:x:1", 1, "")).hasMessageContaining("no numeric chunk index");
    }

    @Test
    void theSameRowVersionIsCurrent() {
        CitationCheck.Verdict v = CitationCheck.check(CitedRow.of(StoredChunk.chunkId(ROW, 0, 3), 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:100")));
        assertThat(v.status()).isEqualTo(CitationCheck.Status.CURRENT);
        assertThat(v.flagged()).isFalse();
    }

    @Test
    void anotherSourcePositionMeansTheRowChanged() {
        CitationCheck.Verdict v = CitationCheck.check(CitedRow.of(StoredChunk.chunkId(ROW, 0, 3), 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:250")));
        assertThat(v.status()).isEqualTo(CitationCheck.Status.CHANGED);
        assertThat(v.detail()).isEqualTo("row changed at the source: position lsn:100 -> lsn:250");
        assertThat(v.currentPosition()).isEqualTo("lsn:250");
    }

    @Test
    void anotherGenerationAtTheSamePositionMeansReindexed() {
        CitationCheck.Verdict v = CitationCheck.check(CitedRow.of(StoredChunk.chunkId(ROW, 0, 3), 3, "lsn:100"), List.of(chunk(0, 1, 4, "lsn:100")));
        assertThat(v.status()).isEqualTo(CitationCheck.Status.CHANGED);
        assertThat(v.detail()).isEqualTo("re-indexed: generation 3 -> 4");
        assertThat(v.currentGeneration()).isEqualTo(4L);
    }

    @Test
    void aRowWithoutChunksIsDeletedAndAMissingChunkIndexIsAChange() {
        CitedRow secondChunk = CitedRow.of(StoredChunk.chunkId(ROW, 1, 3), 3, "lsn:100");
        assertThat(CitationCheck.check(secondChunk, List.of()).status()).isEqualTo(CitationCheck.Status.DELETED);
        CitationCheck.Verdict shrunk = CitationCheck.check(secondChunk, List.of(chunk(0, 1, 3, "lsn:300")));
        assertThat(shrunk.status()).isEqualTo(CitationCheck.Status.CHANGED);
        assertThat(shrunk.detail()).contains("now has 1 chunk(s)");
    }
}
