package org.chartstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class IngestStreamsSettingsTest {

    @Test
    void theIngestRunsExactlyOncePollsAsOftenAsItChecksForAQuietInputAndCommitsAtItsOwnInterval() {
        assertThat(new IngestStreamsSettings(250, 20, 2).properties())
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "20")
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "250")
                .containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2");
    }

    @Test
    void theIngestWaitsForAChangeTopicThatJustDrainedBeforeReadingTheOthersOutOfTimestampOrder() {
        assertThat(new IngestStreamsSettings(100, 10, 1).properties()).containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "200");
    }
}
