package org.chartstream.runtime;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.connectors.SourceKind;
import org.chartstream.ingest.normalize.TableDropped;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.schemas.IngestControl;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a registered table gone from its source: PostgreSQL's logical decoding emits nothing for a {@code DROP
 * TABLE} or a rename, so the capturing process looks in the source catalog every {@code source.catalog-check-ms}.
 * A table found missing is announced once ({@link TableDropped} on the ingest control topic, key {@code source:table};
 * the planner empties its index in one step); a table found again is announced as back, and on PostgreSQL it is put
 * back into the publication Debezium created for the registered tables (the drop took it out; Debezium itself adds
 * it only at its next start), so its changes are captured again. A source that cannot be reached is not a dropped
 * table: the check waits for the next round. Also checked at start, so a drop while the process was down is noticed.
 */
final class SourceCatalogWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourceCatalogWatch.class);
    static final String INTERVAL_KEY = "source.catalog-check-ms";
    private static final String EXISTS = "select count(*) from information_schema.tables where table_schema = ? and table_name = ?";

    /** Opens a JDBC connection to a registered source. */
    interface Sources {
        Connection open(String sourceId) throws SQLException;
    }

    private final List<SourceConnection> connections;
    private final Sources sources;
    private final Consumer<String> progress;
    private final KafkaProducer<String, IngestControl> producer;
    private final Set<String> missing = new HashSet<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "source-catalog-watch");
        t.setDaemon(true);
        return t;
    });

    SourceCatalogWatch(List<SourceConnection> connections, Sources sources, String bootstrapServers, Map<String, String> security,
                       Consumer<String> progress) {
        this.connections = connections;
        this.sources = sources;
        this.progress = progress;
        Properties p = new Properties();
        p.putAll(security);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-source-catalog-watch");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), AvroSerde.of(IngestControl.class));
    }

    /** The watch of the captured {@code sources}, checking every {@value #INTERVAL_KEY} from now on. */
    static SourceCatalogWatch started(ChartstreamConfig config, List<SourceRegistration> sources, EmbeddedInfrastructure infrastructure,
                                      String bootstrapServers, Map<String, String> security, Consumer<String> progress) {
        List<SourceConnection> connections = sources.stream().map(s -> infrastructure.connections().get(s.sourceId())).toList();
        return new SourceCatalogWatch(connections, infrastructure::connection, bootstrapServers, security, progress)
                .start(Duration.ofMillis(config.integer(INTERVAL_KEY)));
    }

    /** Checks now and every {@code interval} ({@value #INTERVAL_KEY}) from then on. */
    SourceCatalogWatch start(Duration interval) {
        if (interval.toMillis() < 1) {
            throw new ConfigException(INTERVAL_KEY + " must be at least 1 (ms), got " + interval.toMillis());
        }
        timer.scheduleWithFixedDelay(this::checkAll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void checkAll() {
        for (SourceConnection connection : connections) {
            try (Connection c = sources.open(connection.sourceId())) {
                for (String table : connection.tables()) {
                    check(c, connection, table);
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("source {}: its catalog could not be read ({}); checked again in the next round", connection.sourceId(),
                        e.getClass().getSimpleName());
            }
        }
    }

    private void check(Connection c, SourceConnection connection, String table) throws SQLException {
        String key = connection.sourceId() + ":" + table;
        boolean exists = exists(c, connection, table);
        if (!exists && missing.add(key)) {
            TableDropped dropped = new TableDropped(connection.sourceId(), table, System.currentTimeMillis());
            try {
                producer.send(new ProducerRecord<>(Topics.INGEST_CONTROL, dropped.tableKey(), dropped.toControl())).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                missing.remove(key); // announced again in the next round
                throw new IllegalStateException("cannot announce the dropped table " + key + ": " + e.getMessage(), e);
            }
            LOG.warn("table {} no longer exists at the source: its rows leave the index", key);
            progress.accept("table " + key + " no longer exists at the source (dropped or renamed): its rows leave the index");
        } else if (exists && missing.remove(key)) {
            publishAgain(c, connection, table);
            LOG.info("table {} exists again at the source: captured again", key);
            progress.accept("table " + key + " exists again at the source: captured again, its rows are indexed as they are written");
        }
    }

    private static boolean exists(Connection c, SourceConnection connection, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXISTS)) {
            ps.setString(1, connection.namespace());
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    /**
     * Puts a re-created PostgreSQL table back into the publication Debezium created for the registered tables
     * ({@code publication.autocreate.mode=filtered}), as Debezium does when it starts; a publication the
     * configuration names as the operator's own is left to the operator.
     */
    private static void publishAgain(Connection c, SourceConnection connection, String table) throws SQLException {
        if (connection.kind() != SourceKind.POSTGRES
                || !"filtered".equals(connection.extra().getOrDefault("publication.autocreate.mode", "filtered"))) {
            return;
        }
        String publication = connection.extra().getOrDefault("publication.name", DebeziumConfigs.publicationName(connection.sourceId()));
        try (Statement s = c.createStatement()) {
            s.execute("alter publication " + publication + " add table " + SourceDatabases.qualifiedTable(connection, table));
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        producer.close(Duration.ofSeconds(2));
    }
}
