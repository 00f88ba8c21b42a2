package org.chartstream.schemas.unreadable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.schemas.DeadLetter;
import org.junit.jupiter.api.Test;

class UnreadableRecordTest {
    private static final byte[] SECRET = "Martha Collins, E11.9".getBytes(StandardCharsets.UTF_8);
    private static final UnreadableRecord RECORD = new UnreadableRecord("chartstream.index", 2, 41, "k".getBytes(StandardCharsets.UTF_8),
            SECRET, "index-materializer", "not an IndexEvent");

    @Test
    void theDeadLetterCarriesWhereTheRecordLayItsBytesStageAndReason() {
        DeadLetter d = RECORD.toDeadLetter(77);
        assertThat(d.getSourceTopic()).isEqualTo("chartstream.index");
        assertThat(d.getPartition()).isEqualTo(2);
        assertThat(d.getOffset()).isEqualTo(41);
        assertThat(d.getKey()).isEqualTo(ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8)));
        assertThat(d.getValue()).isEqualTo(ByteBuffer.wrap(SECRET));
        assertThat(d.getStage()).isEqualTo("index-materializer");
        assertThat(d.getReason()).isEqualTo("not an IndexEvent");
        assertThat(d.getTsMs()).isEqualTo(77);
        assertThat(new UnreadableRecord("t", 0, 1, null, null, "c", "r").toDeadLetter(1).getValue()).isNull();
    }

    @Test
    void theReportNamesWhereAndWhyButNoContent() {
        List<String> lines = new ArrayList<>();
        UnreadableRecords.reportingTo(lines::add).skipped(RECORD);
        assertThat(lines).containsExactly("index-materializer skipped an unreadable record at chartstream.index-2 offset 41: not an IndexEvent");
        assertThat(lines.get(0)).doesNotContain("Martha").doesNotContain("E11");
    }

    @Test
    void countsArePerTopicAndConsumerAndRegisteredPairsStartAtZero() {
        UnreadableRecordCounts counts = new UnreadableRecordCounts();
        counts.register("chartstream.ingest.status", "ops-ingest-status");
        counts.increment(RECORD);
        counts.increment(RECORD);
        assertThat(counts.snapshot()).containsExactly(
                Map.entry(new UnreadableRecordCounts.Source("chartstream.index", "index-materializer"), 2L),
                Map.entry(new UnreadableRecordCounts.Source("chartstream.ingest.status", "ops-ingest-status"), 0L));
    }
}
