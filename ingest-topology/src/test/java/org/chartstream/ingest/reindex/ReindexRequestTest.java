package org.chartstream.ingest.reindex;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReindexRequestTest {
    @Test
    void parsesSourceAndTableFromTheKey() {
        assertThat(ReindexRequest.parse("ehr:clinical_notes", "reindex")).contains(new ReindexRequest("ehr", "clinical_notes"));
        assertThat(ReindexRequest.parse("ehr:clinical_notes", " reindex\n")).isPresent();
    }

    @Test
    void rejectsAnythingElse() {
        assertThat(ReindexRequest.parse("clinical_notes", "reindex")).isEmpty();
        assertThat(ReindexRequest.parse("ehr:", "reindex")).isEmpty();
        assertThat(ReindexRequest.parse("a:b:c", "reindex")).isEmpty();
        assertThat(ReindexRequest.parse("ehr:notes", "drop")).isEmpty();
        assertThat(ReindexRequest.parse(null, "reindex")).isEmpty();
        assertThat(ReindexRequest.parse("ehr:notes", null)).isEmpty();
    }

    @Test
    void aCursorSurvivesItsEncoding() {
        ReindexCursor cursor = new ReindexCursor(4, "ehr:notes:a\tb");
        assertThat(ReindexCursor.decode(cursor.encode())).isEqualTo(cursor);
        assertThat(ReindexCursor.decode(new ReindexCursor(2, "").encode()).lastKey()).isEmpty();
    }
}
