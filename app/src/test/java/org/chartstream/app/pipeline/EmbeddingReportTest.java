package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.chartstream.schemas.EmbeddingProgress;
import org.junit.jupiter.api.Test;

class EmbeddingReportTest {
    private final Map<Integer, EmbeddingProgress> progress = Map.of(
            0, progress(0, "h:/data/ingest-1/run", 812, 705),
            1, progress(1, "h:/data/ingest-2/run", 790, 690),
            2, progress(2, "h:/data/ingest-1/run", 10, 12));

    private static EmbeddingProgress progress(int partition, String instance, long chunks, long events) {
        return EmbeddingProgress.newBuilder().setPartition(partition).setInstance(instance).setChunks(chunks).setEvents(events)
                .setUpdatedMs(1_000).build();
    }

    @Test
    void chunksAreSummedPerInstanceOverThePartitionsItEmbeddedLast() {
        assertThat(EmbeddingReport.chunksPerInstance(progress))
                .containsExactly(Map.entry("h:/data/ingest-1/run", 822L), Map.entry("h:/data/ingest-2/run", 790L));
    }

    @Test
    void everyPartitionIsListedWithItsPendingEventsEvenBeforeItsFirstBatch() {
        String text = EmbeddingReport.text(progress, Map.of(0, 0L, 1, 4L, 2, 0L, 3, 9L));

        assertThat(text.lines()).hasSize(1 + 4 + 2);
        assertThat(text).contains("part 1").containsPattern("part 1\\s+h:/data/ingest-2/run\\s+790\\s+690\\s+4")
                .containsPattern("part 3\\s+-\\s+0\\s+0\\s+9")
                .contains("instance h:/data/ingest-1/run: 822 chunks embedded");
        var json = EmbeddingReport.json(progress, Map.of(0, 0L, 1, 4L, 2, 0L, 3, 9L));
        assertThat(json.get("partitions")).hasSize(4);
        assertThat(json.get("partitions").get(3).get("pending").asLong()).isEqualTo(9);
        assertThat(json.get("instances").get("h:/data/ingest-2/run").asLong()).isEqualTo(790);
    }
}
