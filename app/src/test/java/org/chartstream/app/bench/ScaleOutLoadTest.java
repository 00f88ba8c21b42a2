package org.chartstream.app.bench;

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
        String json = new ScaleOutLoad.Result(settings, 1, summary, 2, 3.5, 1.25).queryJson();

        assertThat(json).isEqualTo("{\"instances\":2, \"killed\":1, \"partitions\":4, \"requests\":4, \"answered\":4, \"lost\":0,"
                + " \"duplicates\":1, \"conflicting_duplicates\":0, \"conversations_out_of_order\":0, \"resumed_from_pending\":2,"
                + " \"final_types\":{\"answer\":4}, \"p50_ms\":200.0, \"p99_ms\":9000.0, \"rps_before_kill\":3.50, \"rps_after_kill\":1.25}");
        assertThat(settings.requests()).isEqualTo(4);
        assertThat(ScaleOutBenchCommand.INGEST_NOT_MEASURED).startsWith("{\"measured\":false");
    }
}
