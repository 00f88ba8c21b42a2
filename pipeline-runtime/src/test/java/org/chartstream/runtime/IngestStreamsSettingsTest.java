package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.Test;

class IngestStreamsSettingsTest {

    @Test
    void theIngestTopologyPollsAsOftenAsItChecksForAQuietInputAndCommitsAtItsOwnInterval() {
        ChartstreamConfig config = ChartstreamConfig.load(null, Map.of("CHARTSTREAM_INGEST_QUIET_MS", "20",
                "CHARTSTREAM_INGEST_COMMIT_INTERVAL_MS", "250"));

        assertThat(StreamsClients.ingestStreamsSettings(config).properties())
                .containsEntry(StreamsConfig.POLL_MS_CONFIG, "20")
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "250");
    }

    @Test
    void theIngestRunsTwoStreamThreadsUnlessConfiguredOtherwise() {
        assertThat(StreamsClients.ingestStreamsSettings(ChartstreamConfig.load(null, Map.of())).streamThreads()).isEqualTo(2);
        assertThat(StreamsClients.ingestStreamsSettings(ChartstreamConfig.load(null, Map.of("CHARTSTREAM_INGEST_STREAM_THREADS", "1")))
                .streamThreads()).isEqualTo(1);
    }

    @Test
    void theIngestPollTimeStaysOutOfTheSettingsTheTopologiesShare() {
        Properties shared = StreamsClients.streamsProperties("app", "127.0.0.1:9092", Map.of(), Path.of("state"));

        assertThat(shared).doesNotContainKey(StreamsConfig.POLL_MS_CONFIG)
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    }
}
