package org.chartstream.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;

/**
 * The broker and source databases a pipeline runs against, started in this process where the configuration names
 * none: an in-process KRaft broker unless {@code kafka.bootstrap} names one, and one embedded PostgreSQL for every
 * postgres source without a host (started by an ingesting process only, loaded when first created). A source with
 * a host is read where its connection keys point.
 */
final class EmbeddedInfrastructure implements AutoCloseable {
    private final StartedParts started;
    private final Map<String, SourceConnection> connections = new LinkedHashMap<>();
    private final Set<String> embeddedSources = new HashSet<>();
    private String bootstrapServers;
    private Map<String, String> kafkaSecurity = Map.of();
    private EmbeddedPostgresSource postgres;

    private EmbeddedInfrastructure(Consumer<String> progress) {
        this.started = new StartedParts(progress);
    }

    /** Starts what the configuration leaves to this process, the broker first; stops it again if a part fails. */
    static EmbeddedInfrastructure start(ChartstreamConfig config, Path dir, List<SourceRegistration> sources,
                                        PipelineRuntime.Role role, PipelineRuntime.SourceLoader loader,
                                        Consumer<String> progress) throws IOException, SQLException {
        EmbeddedInfrastructure infrastructure = new EmbeddedInfrastructure(progress);
        try {
            infrastructure.startBroker(config, dir, progress);
            infrastructure.startSources(config, dir, sources, role, loader, progress);
            return infrastructure;
        } catch (IOException | SQLException | RuntimeException e) {
            infrastructure.started.stop(); // what failed to stop is reported; the start's failure is the one thrown
            throw e;
        }
    }

    private void startBroker(ChartstreamConfig config, Path dir, Consumer<String> progress) throws IOException {
        long t = System.nanoTime();
        String external = config.string("kafka.bootstrap");
        if (external.isEmpty()) {
            EmbeddedKafkaBroker broker = started.add(new EmbeddedKafkaBroker().start(dir.resolve("kafka")));
            bootstrapServers = broker.bootstrapServers();
            progress.accept(String.format("kafka broker ready at %s (%.1f s)", bootstrapServers, PipelineRuntime.secondsSince(t)));
        } else {
            bootstrapServers = external;
            kafkaSecurity = TransportSecurity.kafkaClientProperties(config);
            String weakened = TransportSecurity.warning(config);
            if (weakened != null) {
                progress.accept(weakened);
            }
        }
    }

    private void startSources(ChartstreamConfig config, Path dir, List<SourceRegistration> sources, PipelineRuntime.Role role,
                              PipelineRuntime.SourceLoader loader, Consumer<String> progress) throws IOException, SQLException {
        for (SourceRegistration source : sources) {
            var configured = SourceRegistrations.connection(config, source.sourceId());
            if (configured.isPresent()) {
                connections.put(source.sourceId(), configured.get());
                continue;
            }
            if (!role.captures(config)) {
                continue; // the embedded source database belongs to the ingest process that captures
            }
            if (postgres == null) {
                long t = System.nanoTime();
                boolean fresh = !Files.exists(dir.resolve("postgres"));
                postgres = started.add(EmbeddedPostgresSource.start(dir.resolve("postgres")));
                if (fresh) {
                    SourceDatabases.loadFresh(postgres, loader, progress);
                }
                progress.accept(String.format("postgresql source ready on port %d (%.1f s)", postgres.port(), PipelineRuntime.secondsSince(t)));
            }
            String schema = config.sourceValue(source.sourceId(), "schema");
            connections.put(source.sourceId(), postgres.sourceConnection(source.sourceId(),
                    schema.isEmpty() ? SourceKind.POSTGRES.defaultSchema() : schema, config.sourceList(source.sourceId(), "tables")));
            embeddedSources.add(source.sourceId());
        }
    }

    /** The broker's address: the embedded broker's, else {@code kafka.bootstrap}. */
    String bootstrapServers() {
        return bootstrapServers;
    }

    /** Transport security settings for any Kafka client of the broker (empty when embedded). */
    Map<String, String> kafkaSecurity() {
        return kafkaSecurity;
    }

    /**
     * Where each source this process reaches is read, by source id; an embedded source seen from a query process
     * has none (its ingest process starts the database).
     */
    Map<String, SourceConnection> connections() {
        return connections;
    }

    /** A new JDBC connection to a registered source (the embedded PostgreSQL as its superuser). */
    Connection connection(String sourceId) throws SQLException {
        SourceConnection connection = connections.get(sourceId);
        if (connection == null) {
            throw new IllegalArgumentException("no registered source " + sourceId);
        }
        return embeddedSources.contains(sourceId) ? postgres.connection() : SourceDatabases.open(connection);
    }

    /** The embedded PostgreSQL; null when every source has a host or this process does not ingest. */
    EmbeddedPostgresSource postgres() {
        return postgres;
    }

    /** Stops PostgreSQL, then the broker; throws if either did not stop cleanly (each failure is reported as it happens). */
    @Override
    public void close() {
        if (!started.stop()) {
            throw new IllegalStateException("the embedded broker or PostgreSQL did not stop cleanly");
        }
    }
}
