package org.chartstream.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;
import org.junit.jupiter.api.Test;

class UnreadableRecordsMetricTest {
    @Test
    void everyReaderAndTopicIsACounterFromZeroAndPairsSeenLaterAppearAtTheNextScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PipelineMetrics metrics = new PipelineMetrics(registry);
        UnreadableRecordCounts counts = new UnreadableRecordCounts();
        counts.register("chartstream.index", "index-materializer");
        metrics.bindUnreadable(counts);
        assertThat(registry.scrape()).contains("chartstream_unreadable_records_total{consumer=\"index-materializer\",topic=\"chartstream.index\"} 0.0");

        counts.increment(new UnreadableRecord("chartstream.index", 0, 5, null, new byte[] {1}, "index-materializer", "x"));
        counts.increment(new UnreadableRecord("chartstream.ingest.status", 0, 9, null, null, "ops-ingest-status", "y"));
        metrics.bindUnreadable(counts);
        String scrape = registry.scrape();
        assertThat(scrape).contains("chartstream_unreadable_records_total{consumer=\"index-materializer\",topic=\"chartstream.index\"} 1.0");
        assertThat(scrape).contains("chartstream_unreadable_records_total{consumer=\"ops-ingest-status\",topic=\"chartstream.ingest.status\"} 1.0");
    }
}
