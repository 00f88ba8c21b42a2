package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.ingest.status.TableStatus;
import org.chartstream.runtime.StoreStatus;
import org.junit.jupiter.api.Test;

class StatusReportTest {
    @Test
    void joinsWhatReadersSeeWithTheIngestSideAndTheLag() {
        StoreStatus store = new StoreStatus(1000, "chartstream.index", Map.of("ehr:notes", 2L), Map.of("ehr:notes", 40L), Map.of(0, 90L));
        TableStatus notes = new TableStatus("ehr", "notes", 2, 3, 41, 55, "all-minilm-l6-v2", "lsn:77", 500, 900);

        List<StatusReport.Line> lines = StatusReport.lines(List.of("ehr:notes", "ehr:patients"),
                Map.of("ehr:notes", "ehr.public.notes", "ehr:patients", "ehr.public.patients"), store,
                Map.of("ehr:notes", notes), Map.of("ehr.public.notes", 4L));

        assertThat(lines).containsExactly(
                new StatusReport.Line("ehr:notes", 2, 40, 55, 3, "all-minilm-l6-v2", "lsn:77", 500, 4),
                new StatusReport.Line("ehr:patients", 0, 0, 0, 0, "", "", 0, 0));
        assertThat(StatusReport.json(lines, 7)).contains("\"active_generation\":2", "\"cdc_lag\":4", "\"index_lag\":7");
        assertThat(StatusReport.text(lines, 7, 10_500)).contains("ehr:notes", "lsn:77", "10 s");
    }

    @Test
    void skippedEmptyRowsAndHeldBackColumnsAreNoticesNamingTheTableAndColumnsOnly() {
        TableStatus notes = new TableStatus("ehr", "notes", 2, 0, 41, 55, "m", "lsn:77", 500, 900)
                .withSkippedEmptyRow().withUnreviewedColumns(List.of("ssn"));
        List<String> tables = List.of("ehr:notes", "ehr:patients");
        Map<String, TableStatus> ingest = Map.of("ehr:notes", notes,
                "ehr:patients", new TableStatus("ehr", "patients", 1, 0, 3, 3, "m", "lsn:70", 400, 900));

        assertThat(StatusReport.notices(tables, ingest)).containsExactly(
                "ehr:notes: 1 row change(s) not indexed, every allowed field NULL (rows_skipped_empty)",
                "ehr:notes: new column(s) not indexed until allow-listed in source.fields.notes: ssn");
        assertThat(StatusReport.noticeText(StatusReport.notices(tables, ingest))).startsWith("notice: ehr:notes: 1 row change(s)");
        List<StatusReport.Line> lines = StatusReport.lines(tables, Map.of("ehr:notes", "t1", "ehr:patients", "t2"), null, ingest, Map.of());
        assertThat(StatusReport.json(lines, 0, tables, ingest)).contains("\"rows_skipped_empty\":1", "\"unreviewed_columns\":[\"ssn\"]",
                "\"notices\":[\"ehr:notes: 1 row change(s)");
    }

    @Test
    void indexLagIsWhatTheStoreHasNotCommittedOnEachPartition() {
        assertThat(StatusReport.indexLag(Map.of(0, 100L, 1, 50L, 2, 10L), Map.of(0, 90L, 1, 50L))).isEqualTo(20);
    }
}
