package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.chartstream.client.ReplyTally;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class ScaleOutLoadTest {
    @Test
    void theQueryPartNamesEveryCountAndTheLatencyPercentilesOfTheFirstFinalReplies() {
        ScaleOutLoad.Settings settings = new ScaleOutLoad.Settings(2, 4, 3, 2, 1, 2, 0.3, Duration.ofSeconds(60), Map.of());
        ReplyTally.Summary summary = new ReplyTally.Summary(4, 4, 0, 1, 0, 0, Map.of(ReplyType.ANSWER, 4), List.of(100.0, 200.0, 300.0, 9000.0));
        String json = new ScaleOutLoad.Result(settings, 1, 3, summary, 2, 3.5, 1.25).queryJson();

        assertThat(json).isEqualTo("{\"instances\":2, \"killed\":1, \"in_flight_at_kill\":3, \"partitions\":4, \"requests\":4, \"answered\":4, \"lost\":0,"
                + " \"duplicates\":1, \"conflicting_duplicates\":0, \"conversations_out_of_order\":0, \"resumed_from_pending\":2,"
                + " \"final_types\":{\"answer\":4}, \"p50_ms\":200.0, \"p99_ms\":9000.0, \"rps_before_kill\":3.50, \"rps_after_kill\":1.25}");
        assertThat(settings.requests()).isEqualTo(4);
    }

    @Test
    void theIngestPartComparesTheScaledRunWithTheSingleInstanceOfTheSameRunAndBothIndexesWithTheSource() {
        Map<String, Long> rows = Map.of("ehr:notes", 2L, "ehr:patients", 1L);
        Map<String, String> hashes = Map.of("ehr:notes:1", "a", "ehr:notes:2", "b", "ehr:patients:p1", "c");
        IngestScaleOut.Run single = new IngestScaleOut.Run(1, 300, 30.0, rows, hashes, Map.of("h:ingest-0", 300L),
                Map.of("ingest-0", "{\"total\":29.0, \"compiler\":6.0, \"gc\":0.5}", "bench", "null"));
        IngestScaleOut.Run scaled = new IngestScaleOut.Run(2, 300, 16.0, rows, hashes, Map.of("h:ingest-0", 140L, "h:ingest-1", 160L),
                Map.of("ingest-0", "{\"total\":15.0, \"compiler\":5.0, \"gc\":0.2}", "ingest-1", "{\"total\":14.0, \"compiler\":4.5, \"gc\":0.2}"));
        IngestScaleOut.Result result = new IngestScaleOut.Result(single, scaled, Map.of("ehr:notes", 2, "ehr:patients", 1), 2, List.of("-XX:TieredStopAtLevel=1"),
                List.of("-XX:TieredStopAtLevel=1", "-Xmx512m"));

        assertThat(result.json()).isEqualTo("{\"instances\":2, \"partitions\":2, \"rows\":3, \"chunks\":300, \"chunks_per_s\":18.75,"
                + " \"single_chunks_per_s\":10.00, \"ratio\":1.88, \"seconds\":16.0, \"single_seconds\":30.0,"
                + " \"chunks_per_instance\":{\"h:ingest-0\":140, \"h:ingest-1\":160}, \"index_equals_source\":true,"
                + " \"cpu_s\":{\"ingest-0\":{\"total\":15.0, \"compiler\":5.0, \"gc\":0.2}, \"ingest-1\":{\"total\":14.0, \"compiler\":4.5, \"gc\":0.2}},"
                + " \"single_cpu_s\":{\"bench\":null, \"ingest-0\":{\"total\":29.0, \"compiler\":6.0, \"gc\":0.5}},"
                + " \"jvm_options\":\"-XX:TieredStopAtLevel=1\", \"broker_jvm_options\":\"-XX:TieredStopAtLevel=1 -Xmx512m\"}");
        assertThat(new IngestScaleOut.Result(single, new IngestScaleOut.Run(2, 300, 16.0, rows,
                Map.of("ehr:notes:1", "a", "ehr:notes:2", "stale", "ehr:patients:p1", "c"), Map.of(), Map.of()), Map.of("ehr:notes", 2, "ehr:patients", 1), 2, List.of("-XX:TieredStopAtLevel=1"), List.of())
                .indexEqualsSource()).as("a row with other chunk texts").isFalse();
        assertThat(new IngestScaleOut.Result(single, new IngestScaleOut.Run(2, 300, 16.0, Map.of("ehr:notes", 2L),
                Map.of("ehr:notes:1", "a", "ehr:notes:2", "stale"), Map.of(), Map.of()), Map.of("ehr:notes", 2, "ehr:patients", 1), 2, List.of("-XX:TieredStopAtLevel=1"), List.of()).json())
                .as("what differs, counted per table")
                .endsWith("\"index_equals_source\":false, \"mismatches\":{\"ehr:notes\":\"source 2 rows, single 2, scaled 2, chunk texts"
                        + " differ in 1\", \"ehr:patients\":\"source 1 rows, single 1, scaled 0, chunk texts differ in 1\"}, \"cpu_s\":{},"
                        + " \"single_cpu_s\":{\"bench\":null, \"ingest-0\":{\"total\":29.0, \"compiler\":6.0, \"gc\":0.5}},"
                + " \"jvm_options\":\"-XX:TieredStopAtLevel=1\", \"broker_jvm_options\":\"\"}");
        assertThat(new IngestScaleOut.Result(single, scaled, Map.of("ehr:notes", 3, "ehr:patients", 1), 2, List.of(), List.of()).indexEqualsSource())
                .as("a source row missing from the index").isFalse();
    }
}
