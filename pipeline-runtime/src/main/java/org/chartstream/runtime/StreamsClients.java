package org.chartstream.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.chartstream.ingest.IngestStreamsSettings;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The Kafka Streams clients of a runtime: the settings every topology shares, each topology's own over them, the
 * record size limits, and a client that stops the process's part on an error; each client started is closed cleanly
 * with the runtime and reports what it restores from changelogs.
 */
public final class StreamsClients {
    private final String bootstrap;
    private final Map<String, String> security;
    private final Path stateDir;
    private final int maxRecordBytes;
    private final StartedParts started;
    private final Consumer<String> progress;

    StreamsClients(String bootstrap, Map<String, String> security, Path stateDir, int maxRecordBytes, StartedParts started,
                   Consumer<String> progress) {
        this.bootstrap = bootstrap;
        this.security = security;
        this.stateDir = stateDir;
        this.maxRecordBytes = maxRecordBytes;
        this.started = started;
        this.progress = progress;
    }

    /** A started Kafka Streams client whose state changes nothing here listens to. */
    KafkaStreams start(String applicationId, Topology topology, Map<String, String> overrides) throws IOException {
        return start(applicationId, topology, overrides, null);
    }

    /**
     * @param overrides     the topology's own Streams settings, over the shared {@link #streamsProperties}
     * @param stateListener told of every state change, from before the client starts; null for none
     */
    KafkaStreams start(String applicationId, Topology topology, Map<String, String> overrides,
                       KafkaStreams.StateListener stateListener) throws IOException {
        Properties p = streamsProperties(applicationId, bootstrap, security, Files.createDirectories(stateDir));
        p.putAll(overrides);
        // a row image or an index event of a row near the field cap is larger than Kafka's 1 MB defaults
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), Integer.toString(maxRecordBytes));
        p.put(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), Integer.toString(PipelineTopics.maxMessageBytes(maxRecordBytes)));
        KafkaStreams streams = new KafkaStreams(topology, p);
        streams.setUncaughtExceptionHandler(e -> {
            progress.accept(applicationId + " stopped on an error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        if (stateListener != null) {
            streams.setStateListener(stateListener);
        }
        streams.setGlobalStateRestoreListener(new ChangelogRestoreReport(applicationId, progress));
        streams.start();
        started.add(() -> closeCleanly(applicationId, streams));
        return streams;
    }

    /** How long a Streams client may take to commit, checkpoint and close its tasks before its stop counts as unclean. */
    static final Duration CLOSE_BOUND = Duration.ofSeconds(30);

    /**
     * Closes {@code streams} within {@link #CLOSE_BOUND}: its threads finish the record in hand, commit (under exactly-once,
     * the open transaction), write each task's checkpoint and close the stores, so the next start restores nothing. The
     * client leaves its group, so the tasks move to another instance at once rather than after the session timeout.
     */
    private static void closeCleanly(String applicationId, KafkaStreams streams) {
        boolean closed = streams.close(CloseOptions.timeout(CLOSE_BOUND)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        if (!closed) {
            throw new IllegalStateException(applicationId + " did not close within " + CLOSE_BOUND.toSeconds()
                    + " s; tasks not closed are restored from their changelogs on the next start");
        }
    }

    /**
     * The settings of the runtime's Kafka Streams instances; {@code security} (the transport security of an external
     * broker) reaches their consumers, producers and admin clients alike.
     */
    public static Properties streamsProperties(String applicationId, String bootstrapServers, Map<String, String> security, Path stateDir) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        p.put(StreamsConfig.consumerPrefix("metadata.max.age.ms"), "1000");
        // a process that died without leaving the group holds its tasks until its session expires
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), "10000");
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), Integer.toString(CONSUMER_HEARTBEAT_MS));
        return p;
    }

    /** The Streams consumers' heartbeat interval, a fifth of their session timeout (Kafka's own ratio is a third). */
    static final int CONSUMER_HEARTBEAT_MS = 2000;

    /** The ingest topology's Kafka Streams settings as configured. */
    static IngestStreamsSettings ingestStreamsSettings(ChartstreamConfig config) {
        return new IngestStreamsSettings(config.integer("ingest.commit-interval-ms"), config.integer("ingest.quiet-ms"),
                (int) config.integer("ingest.stream-threads"));
    }
}
