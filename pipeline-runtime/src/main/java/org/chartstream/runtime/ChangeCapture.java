package org.chartstream.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.EmbeddedDebeziumRunner;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.schemas.limits.FieldCap;
import org.chartstream.ingest.normalize.SourceRegistration;

/**
 * Change data capture in this process: an embedded Debezium engine per source, writing the source's change topics
 * to the pipeline's broker (embedded or external alike), stopped in reverse order of starting.
 */
final class ChangeCapture implements AutoCloseable {
    private final Path offsetsDir;
    private final String bootstrapServers;
    private final Map<String, String> kafkaSecurity;
    private final int maxRecordBytes;
    private final int maxFieldBytes;
    private final Consumer<String> progress;
    private final StartedParts started;
    private final List<EmbeddedDebeziumRunner> runners = new ArrayList<>();

    /**
     * @param maxRecordBytes {@code kafka.max-record-bytes}, the producers' {@code max.request.size}
     * @param maxFieldBytes {@code ingest.max-field-bytes}, where a field is capped before it is written
     */
    ChangeCapture(Path offsetsDir, String bootstrapServers, Map<String, String> kafkaSecurity, int maxRecordBytes,
                  int maxFieldBytes, Consumer<String> progress) {
        this.offsetsDir = offsetsDir;
        this.bootstrapServers = bootstrapServers;
        this.kafkaSecurity = kafkaSecurity;
        this.maxRecordBytes = maxRecordBytes;
        this.maxFieldBytes = maxFieldBytes;
        this.progress = progress;
        this.started = new StartedParts(progress);
    }

    /**
     * Starts the engine that captures {@code source}, read at {@code connection}, looking for new changes every
     * {@code pollIntervalMs} while there are none ({@code source.poll-interval-ms}; the connection's own extra
     * properties still win).
     */
    void start(SourceRegistration source, SourceConnection connection, long pollIntervalMs) {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("poll.interval.ms", Long.toString(pollIntervalMs));
        extra.putAll(connection.extra());
        Properties engine = DebeziumConfigs.forSource(connection.withExtra(extra), source.topicPrefix(), offsetsDir, bootstrapServers);
        engine.putAll(kafkaSecurity); // Kafka Connect's worker may contact the broker with its own clients
        Map<String, Object> producer = new LinkedHashMap<>(kafkaSecurity);
        producer.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(maxRecordBytes));
        EmbeddedDebeziumRunner runner = new EmbeddedDebeziumRunner(engine, producer, new FieldCap(maxFieldBytes));
        runner.start();
        started.add(runner);
        runners.add(runner);
        progress.accept("change data capture started for " + source.sourceId() + " (Debezium "
                + connection.kind().name().toLowerCase(Locale.ROOT) + ")");
    }

    /** The error the first failed engine stopped on, in order of starting. */
    Optional<Throwable> failure() {
        return runners.stream().map(EmbeddedDebeziumRunner::failure).flatMap(Optional::stream).findFirst();
    }

    /** Null when every engine runs, else the state of the first that does not. */
    String problem() {
        for (EmbeddedDebeziumRunner runner : runners) {
            if (runner.state() != EmbeddedDebeziumRunner.State.RUNNING) {
                return "change data capture is " + runner.state().name().toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    @Override
    public void close() {
        started.close();
    }
}
