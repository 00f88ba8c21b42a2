package org.chartstream.app.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.chartstream.app.config.ChartstreamConfig;
import org.chartstream.app.embedded.EmbeddedKafkaBroker;
import org.chartstream.app.embedded.EmbeddedPostgresSource;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.EmbeddedDebeziumRunner;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.ingest.IngestSettings;
import org.chartstream.ingest.IngestTopology;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.publish.IndexMaterializer;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.schemas.Topics;
import org.chartstream.store.TableRef;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * Everything on one machine: an in-process KRaft broker, an embedded PostgreSQL source, embedded Debezium, the
 * ingest and query topologies, the index materializer and a Lucene replica. Started in dependency order and
 * stopped in reverse (the broker last).
 */
public final class EmbeddedRuntime implements AutoCloseable {
    /** Loads the source database the first time it is created; returns row counts per table. */
    @FunctionalInterface
    public interface SourceLoader {
        Map<String, Integer> load(Connection connection) throws SQLException;
    }

    private final ChartstreamConfig config;
    private final Path dir;
    private final Consumer<String> progress;
    private final List<AutoCloseable> started = new ArrayList<>();
    private EmbeddedKafkaBroker broker;
    private EmbeddedPostgresSource postgres;
    private OnnxEmbedder model;
    private LuceneHybridStore store;
    private IndexMaterializer materializer;
    private EmbeddedDebeziumRunner debezium;
    private KafkaStreams ingest;
    private KafkaStreams query;
    private QueryWiring queryWiring;
    private SourceRegistration source;

    private EmbeddedRuntime(ChartstreamConfig config, Path dir, Consumer<String> progress) {
        this.config = config;
        this.dir = dir;
        this.progress = progress;
    }

    public static EmbeddedRuntime start(ChartstreamConfig config, Path dir, SourceLoader loader, Consumer<String> progress) {
        EmbeddedRuntime runtime = new EmbeddedRuntime(config, dir, progress);
        try {
            runtime.startAll(loader);
            return runtime;
        } catch (Exception e) {
            runtime.close();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("embedded runtime failed to start: " + e.getMessage(), e);
        }
    }

    private void startAll(SourceLoader loader) throws Exception {
        Files.createDirectories(dir);
        source = SourceRegistrations.from(config);
        long t = System.nanoTime();

        broker = new EmbeddedKafkaBroker().start(dir.resolve("kafka"));
        started.add(broker);
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (String topic : List.of(Topics.REQUESTS, Topics.REPLIES, Topics.AUDIT, Topics.DEAD_LETTER, Topics.INDEX)) {
            topics.put(topic, 1);
        }
        for (String table : config.tables()) {
            topics.put(source.topicPrefix() + ".public." + table, 1);
        }
        broker.createTopics(topics);
        progress.accept(String.format("kafka broker ready at %s (%.1f s)", broker.bootstrapServers(), secondsSince(t)));

        t = System.nanoTime();
        boolean fresh = !Files.exists(dir.resolve("postgres"));
        postgres = EmbeddedPostgresSource.start(dir.resolve("postgres"));
        started.add(postgres);
        if (fresh) {
            try (Connection c = postgres.connection()) {
                Map<String, Integer> counts = loader.load(c);
                progress.accept("source database loaded: " + counts);
            }
        }
        progress.accept(String.format("postgresql source ready on port %d (%.1f s)", postgres.port(), secondsSince(t)));

        t = System.nanoTime();
        model = OnnxEmbedder.load(ModelDescriptor.byId(config.string("embedding.model")), (int) config.integer("embedding.threads"));
        started.add(model);
        store = LuceneHybridStore.open(dir.resolve("index"));
        started.add(store);
        progress.accept(String.format("model %s and index loaded (%.1f s)", model.modelId(), secondsSince(t)));

        materializer = new IndexMaterializer(broker.bootstrapServers(), Topics.INDEX, store).start();
        started.add(materializer);

        int window = (int) config.integer("chunk.window-tokens");
        var chunker = window == 0 ? model.chunker() : model.chunker(window, (int) config.integer("chunk.overlap-tokens"));
        IngestSettings ingestSettings = new IngestSettings(List.of(source), (int) config.integer("ingest.batch-chunks"),
                Duration.ofMillis(config.integer("ingest.linger-ms")), Topics.INDEX, Topics.DEAD_LETTER);
        ingest = streams("chartstream-ingest", IngestTopology.build(ingestSettings, chunker::chunkUnderHeader, EmbedderPorts.passages(model)));

        queryWiring = QueryWiring.create(config, model, store);
        query = streams("chartstream-query", queryWiring.topology());

        SourceConnection connection = postgres.sourceConnection(source.sourceId(), config.tables());
        debezium = new EmbeddedDebeziumRunner(DebeziumConfigs.forSource(connection, source.topicPrefix(),
                dir.resolve("debezium"), broker.bootstrapServers()));
        debezium.start();
        started.add(debezium);
        progress.accept("change data capture started (Debezium " + connection.kind().name().toLowerCase() + ")");
    }

    private KafkaStreams streams(String applicationId, Topology topology) throws IOException {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(dir.resolve("streams")).toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        p.put(StreamsConfig.consumerPrefix("metadata.max.age.ms"), "1000");
        KafkaStreams streams = new KafkaStreams(topology, p);
        streams.setUncaughtExceptionHandler(e -> {
            progress.accept(applicationId + " stopped on an error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        started.add(() -> streams.close(Duration.ofSeconds(10)));
        return streams;
    }

    /** Rows per registered table in the source database. */
    public Map<String, Long> sourceRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = postgres.connection(); Statement s = c.createStatement()) {
            for (String table : config.tables()) {
                try (ResultSet rs = s.executeQuery("select count(*) from public." + quoteIdentifier(table))) {
                    rs.next();
                    counts.put(table, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count source rows: " + e.getMessage(), e);
        }
        return counts;
    }

    /** Rows per registered table visible in the index's active generations. */
    public Map<String, Long> indexedRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : config.tables()) {
            counts.put(table, store.countRows(new TableRef(source.sourceId(), table)));
        }
        return counts;
    }

    /** Blocks until every registered table's active generation holds as many rows as the source. */
    public void awaitSearchable(Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long lastReport = 0;
        while (true) {
            checkHealthy();
            Map<String, Long> expected = sourceRowCounts();
            Map<String, Long> indexed = indexedRowCounts();
            if (indexed.equals(expected)) {
                progress.accept(String.format("searchable: %s rows indexed (%.1f s)", total(indexed), secondsSince(start)));
                return;
            }
            if (System.nanoTime() - lastReport > 2_000_000_000L) {
                lastReport = System.nanoTime();
                StringBuilder line = new StringBuilder(String.format("indexing (%.0f s):", secondsSince(start)));
                expected.forEach((table, n) -> line.append(' ').append(table).append(' ').append(indexed.get(table)).append('/').append(n));
                progress.accept(line.toString());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("index did not catch up with the source within " + timeout.toSeconds()
                        + " s: source " + expected + ", indexed " + indexed);
            }
            sleep(250);
        }
    }

    private void checkHealthy() {
        if (materializer.failure() != null) {
            throw new IllegalStateException("index materializer failed: " + materializer.failure().getMessage(), materializer.failure());
        }
        if (debezium.failure().isPresent()) {
            throw new IllegalStateException("change data capture failed: " + debezium.failure().get().getMessage(), debezium.failure().get());
        }
        for (KafkaStreams s : List.of(ingest, query)) {
            if (s.state() == KafkaStreams.State.ERROR || s.state() == KafkaStreams.State.NOT_RUNNING
                    || s.state() == KafkaStreams.State.PENDING_SHUTDOWN) {
                throw new IllegalStateException("a Kafka Streams topology stopped (state " + s.state() + ")");
            }
        }
    }

    /** Creates topics on the embedded broker (idempotent), e.g. a caller's own reply topic. */
    public void createTopics(Map<String, Integer> nameToPartitions) {
        broker.createTopics(nameToPartitions);
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public EmbeddedPostgresSource postgres() {
        return postgres;
    }

    public LuceneHybridStore store() {
        return store;
    }

    public OnnxEmbedder model() {
        return model;
    }

    public String sourceId() {
        return source.sourceId();
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String quoteIdentifier(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("table name '" + name + "' is not a plain SQL identifier");
        }
        return "\"" + name + "\"";
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                progress.accept("while stopping: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        started.clear();
        if (queryWiring != null) {
            queryWiring.close();
        }
    }
}
