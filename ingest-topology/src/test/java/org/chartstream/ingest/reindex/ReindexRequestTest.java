package org.chartstream.ingest.reindex;

import static org.assertj.core.api.Assertions.assertThat;

import org.chartstream.schemas.IngestCommand;
import org.chartstream.schemas.IngestControl;
import org.junit.jupiter.api.Test;

class ReindexRequestTest {
    @Test
    void aReindexCommandNamesItsSourceAndTable() {
        assertThat(ReindexRequest.of(control(IngestCommand.REINDEX, "ehr", "clinical_notes")))
                .contains(new ReindexRequest("ehr", "clinical_notes"));
        assertThat(new ReindexRequest("ehr", "clinical_notes").tableKey()).isEqualTo("ehr:clinical_notes");
    }

    @Test
    void anUnknownCommandOrAMissingTableIsNoRequest() {
        assertThat(ReindexRequest.of(control(IngestCommand.UNKNOWN, "ehr", "clinical_notes"))).isEmpty();
        assertThat(ReindexRequest.of(control(IngestCommand.REINDEX, "", "clinical_notes"))).isEmpty();
        assertThat(ReindexRequest.of(control(IngestCommand.REINDEX, "ehr", ""))).isEmpty();
    }

    @Test
    void aCursorSurvivesItsEncoding() {
        ReindexCursor cursor = new ReindexCursor(4, "ehr:notes:a\tb");
        assertThat(ReindexCursor.decode(cursor.encode())).isEqualTo(cursor);
        assertThat(ReindexCursor.decode(new ReindexCursor(2, "").encode()).lastKey()).isEmpty();
    }

    private static IngestControl control(IngestCommand command, String source, String table) {
        return IngestControl.newBuilder().setCommand(command).setSourceId(source).setTableName(table).build();
    }
}
