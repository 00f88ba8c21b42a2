package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.runtime.StoreStatus;
import org.chartstream.schemas.IngestTableStatus;
import org.junit.jupiter.api.Test;

class StatusReportTest {
    private static IngestTableStatus status(String table, long active, long staged, long rows, long chunks, String model,
                                            String position, long commitTsMs) {
        return IngestTableStatus.newBuilder().setSourceId("ehr").setTableName(table).setActiveGeneration(active)
                .setStagedGeneration(staged).setRows(rows).setChunks(chunks).setModelId(model).setSourcePosition(position)
                .setCommitTsMs(commitTsMs).setUpdatedMs(900).build();
    }

    @Test
    void joinsWhatReadersSeeWithTheIngestSideAndTheLag() {
        StoreStatus store = new StoreStatus("h:/run", 1000, "chartstream.index", Map.of("ehr:notes", 2L), Map.of("ehr:notes", 40L), Map.of(0, 90L));
        IngestTableStatus notes = status("notes", 2, 3, 41, 55, "all-minilm-l6-v2", "lsn:77", 500);

        List<StatusReport.Line> lines = StatusReport.lines(List.of("ehr:notes", "ehr:patients"),
                Map.of("ehr:notes", "ehr.public.notes", "ehr:patients", "ehr.public.patients"), store,
                Map.of("ehr:notes", notes), Map.of("ehr.public.notes", 4L));

        assertThat(lines).containsExactly(
                new StatusReport.Line("ehr:notes", 2L, 40L, 55, 3, "all-minilm-l6-v2", "lsn:77", 500, 4),
                new StatusReport.Line("ehr:patients", 0L, 0L, 0, 0, "", "", 0, 0));
        assertThat(StatusReport.json(lines, 7L)).contains("\"active_generation\":2", "\"cdc_lag\":4", "\"index_lag\":7");
        assertThat(StatusReport.text(lines, 7L, 10_500)).contains("ehr:notes", "lsn:77", "10 s");
    }

    @Test
    void withoutAPublishedStoreViewTheStoresColumnsAreUnknownNotZero() {
        IngestTableStatus notes = status("notes", 1, 0, 41, 55, "m", "lsn:77", 500);

        List<StatusReport.Line> lines = StatusReport.lines(List.of("ehr:notes"), Map.of("ehr:notes", "t1"), null,
                Map.of("ehr:notes", notes), Map.of());

        assertThat(lines.get(0).active()).isNull();
        assertThat(lines.get(0).rows()).isNull();
        assertThat(StatusReport.json(lines, null)).contains("\"active_generation\":null", "\"rows\":null", "\"index_lag\":null");
        assertThat(StatusReport.text(lines, null, 1_000)).containsPattern("ehr:notes\\s+-\\s+-\\s+55")
                .contains("index log records not yet in the store: unknown (no query process has published its store status");
    }

    @Test
    void theMostRecentlyUpdatedStoreViewIsReported() {
        StoreStatus stopped = new StoreStatus("h:/old", 1000, "chartstream.index", Map.of("ehr:notes", 1L), Map.of(), Map.of());
        StoreStatus running = new StoreStatus("h:/run", 5000, "chartstream.index", Map.of("ehr:notes", 2L), Map.of(), Map.of());

        assertThat(StatusReport.freshest(Map.of("h:/old", stopped, "h:/run", running))).contains(running);
        assertThat(StatusReport.freshest(Map.of())).isEmpty();
    }

    @Test
    void skippedEmptyRowsUnresolvedCodesAndHeldBackColumnsAreNoticesNamingTheTableAndColumnsOnly() {
        IngestTableStatus notes = IngestTableStatus.newBuilder(status("notes", 2, 0, 41, 55, "m", "lsn:77", 500))
                .setRowsSkippedEmpty(1).setUnreviewedColumns(List.of("ssn")).setUnresolvedCodes(3).build();
        List<String> tables = List.of("ehr:notes", "ehr:patients");
        Map<String, IngestTableStatus> ingest = Map.of("ehr:notes", notes, "ehr:patients", status("patients", 1, 0, 3, 3, "m", "lsn:70", 400));

        assertThat(StatusReport.notices(tables, ingest)).containsExactly(
                "ehr:notes: 1 row change(s) not indexed, every allowed field NULL (rows_skipped_empty)",
                "ehr:notes: 3 code(s) not in their dictionary, shown without meaning (unresolved_codes)",
                "ehr:notes: new column(s) not indexed until allow-listed in source.fields.notes: ssn");
        assertThat(StatusReport.noticeText(StatusReport.notices(tables, ingest))).startsWith("notice: ehr:notes: 1 row change(s)");
        List<StatusReport.Line> lines = StatusReport.lines(tables, Map.of("ehr:notes", "t1", "ehr:patients", "t2"), null, ingest, Map.of());
        assertThat(StatusReport.json(lines, 0L, tables, ingest)).contains("\"rows_skipped_empty\":1", "\"unreviewed_columns\":[\"ssn\"]", "\"unresolved_codes\":3",
                "\"notices\":[\"ehr:notes: 1 row change(s)");
    }

    @Test
    void indexLagIsWhatTheStoreHasNotCommittedOnEachPartition() {
        assertThat(StatusReport.indexLag(Map.of(0, 100L, 1, 50L, 2, 10L), Map.of(0, 90L, 1, 50L))).isEqualTo(20);
    }
}
