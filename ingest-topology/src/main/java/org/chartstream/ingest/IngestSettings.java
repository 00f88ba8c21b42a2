package org.chartstream.ingest;

import java.time.Duration;
import java.util.List;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.schemas.Topics;

/**
 * @param batchChunks chunks per embedding call (a batch is embedded when this many are pending)
 * @param linger      longest time a pending chunk waits for its batch to fill
 */
public record IngestSettings(List<SourceRegistration> sources, int batchChunks, Duration linger,
                             String indexTopic, String deadLetterTopic) {
    public IngestSettings {
        sources = List.copyOf(sources);
        if (batchChunks < 1) {
            throw new IllegalArgumentException("ingest batch size must be at least 1, got " + batchChunks);
        }
    }

    public static IngestSettings defaults(List<SourceRegistration> sources) {
        return new IngestSettings(sources, 64, Duration.ofMillis(500), Topics.INDEX, Topics.DEAD_LETTER);
    }
}
