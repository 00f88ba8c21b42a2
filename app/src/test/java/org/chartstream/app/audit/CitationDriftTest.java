package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.query.audit.AuditRecords;
import org.junit.jupiter.api.Test;

class CitationDriftTest {
    private static final RowRef ROW = new RowRef("ehr", "medications", "900001");
    private static final String CITED_TEXT = "Zolmitriptan 2.5 MG, migraine with aura";

    private static StoredChunk chunk(int index, int count, long generation, String position, String text) {
        return ChunkFixture.of(ROW).index(index, count).generation(generation).text(text).source(position, 0L).build();
    }

    private static CitedRow cited(int index, long generation, String position) {
        return CitedRow.of(StoredChunk.chunkId(ROW, index, generation), generation, position, AuditRecords.contentSha256(CITED_TEXT));
    }

    @Test
    void aChunkIdParsesIntoRowChunkAndGenerationEvenWhenTheRowKeyHoldsColons() {
        CitedRow c = CitedRow.of("ehr:encounters:a:b|c:2:7", 7, "lsn:1");
        assertThat(c.row()).isEqualTo(new RowRef("ehr", "encounters", "a:b|c"));
        assertThat(c.chunkIndex()).isEqualTo(2);
        assertThat(c.rowId()).isEqualTo("ehr:encounters:a:b|c");
        assertThat(c.contentSha256()).isEmpty();
        assertThatThrownBy(() -> CitedRow.of("ehr:medications", 1, "")).hasMessageContaining("is not source:table:rowKey");
        assertThatThrownBy(() -> CitedRow.of("ehr:medications:1:x:1", 1, "")).hasMessageContaining("no numeric chunk index");
    }

    @Test
    void theSameTextInTheSameGenerationIsCurrent() {
        CitationDrift.Verdict v = CitationDrift.check(cited(0, 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:100", CITED_TEXT)));
        assertThat(v.status()).isEqualTo(CitationDrift.Status.CURRENT);
        assertThat(v.flagged()).isFalse();
        assertThat(v.detail()).isEmpty();
        assertThat(v.currentContentSha256()).isEqualTo(AuditRecords.contentSha256(CITED_TEXT));
    }

    @Test
    void otherTextIsAChangedRowAndALaterPositionWithTheSameTextStillStands() {
        CitationDrift.Verdict changed = CitationDrift.check(cited(0, 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:250", "Zolmitriptan 5 MG")));
        assertThat(changed.status()).isEqualTo(CitationDrift.Status.CHANGED);
        assertThat(changed.detail()).isEqualTo("row changed at the source: position lsn:100 -> lsn:250, content differs");
        assertThat(changed.currentPosition()).isEqualTo("lsn:250");

        CitationDrift.Verdict recaptured = CitationDrift.check(cited(0, 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:250", CITED_TEXT)));
        assertThat(recaptured.status()).as("an update of a column that is not projected").isEqualTo(CitationDrift.Status.CURRENT);
        assertThat(recaptured.detail()).isEqualTo("re-captured at the source: position lsn:100 -> lsn:250, same content");
    }

    @Test
    void evidenceWithoutAHashFallsBackToTheSourcePosition() {
        CitedRow unhashed = CitedRow.of(StoredChunk.chunkId(ROW, 0, 3), 3, "lsn:100");
        assertThat(CitationDrift.check(unhashed, List.of(chunk(0, 1, 3, "lsn:100", "any"))).status()).isEqualTo(CitationDrift.Status.CURRENT);
        CitationDrift.Verdict moved = CitationDrift.check(unhashed, List.of(chunk(0, 1, 3, "lsn:250", "any")));
        assertThat(moved.status()).isEqualTo(CitationDrift.Status.CHANGED);
        assertThat(moved.detail()).isEqualTo("row changed at the source: position lsn:100 -> lsn:250");
    }

    @Test
    void anotherGenerationIsFlaggedEvenWithTheSameText() {
        CitationDrift.Verdict v = CitationDrift.check(cited(0, 3, "lsn:100"), List.of(chunk(0, 1, 4, "lsn:100", CITED_TEXT)));
        assertThat(v.status()).isEqualTo(CitationDrift.Status.CHANGED);
        assertThat(v.detail()).isEqualTo("re-indexed: generation 3 -> 4, same content");
        assertThat(v.currentGeneration()).isEqualTo(4L);
    }

    @Test
    void aRowWithoutChunksIsDeletedAndAMissingChunkIndexIsAChange() {
        assertThat(CitationDrift.check(cited(1, 3, "lsn:100"), List.of()).status()).isEqualTo(CitationDrift.Status.DELETED);
        CitationDrift.Verdict shrunk = CitationDrift.check(cited(1, 3, "lsn:100"), List.of(chunk(0, 1, 3, "lsn:300", CITED_TEXT)));
        assertThat(shrunk.status()).isEqualTo(CitationDrift.Status.CHANGED);
        assertThat(shrunk.detail()).contains("now has 1 chunk(s)");
    }
}
