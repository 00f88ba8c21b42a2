package org.chartstream.runtime;

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
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.SourceConnection;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.chartstream.ingest.IngestSettings;
import org.chartstream.ingest.IngestStreamsSettings;
import org.chartstream.ingest.IngestTopology;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.TokenChunker;
import org.chartstream.replica.IndexContract;
import org.chartstream.replica.IndexMaterializer;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.StoreSelection;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.unreadable.DeadLetterSink;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;

/**
 * The pipeline of one process, against any broker: its topics, embedded Debezium per source, the ingest and query
 * topologies, the index materializer and the store. The broker and source databases are the configured ones, or an
 * in-process KRaft broker and an embedded PostgreSQL this process starts for what is not configured (see
 * {@link EmbeddedInfrastructure}). Started in dependency order and stopped in reverse (the broker last). A process
 * that answers publishes what its store serves ({@link StoreStatus}) on {@code chartstream.store.status}.
 */
public final class PipelineRuntime implements AutoCloseable {
    /** Loads the source database the first time it is created; returns row counts per table. */
    @FunctionalInterface
    public interface SourceLoader {
        Map<String, Integer> load(Connection connection) throws SQLException;
    }

    /**
     * What one process runs. {@code INGEST}: change data capture and the ingest topology, writing the index log.
     * {@code QUERY}: the index materializer, the store and the query topology. {@code ALL}: both (one machine).
     */
    public enum Role {
        ALL, INGEST, QUERY;

        boolean ingests() {
            return this != QUERY;
        }

        boolean answers() {
            return this != INGEST;
        }

        /** Whether this process runs change data capture: an ingest process unless {@code ingest.capture=false}. */
        boolean captures(ChartstreamConfig config) {
            return ingests() && Boolean.parseBoolean(config.string("ingest.capture"));
        }
    }

    private final ChartstreamConfig config;
    private final Path dir;
    private final Role role;
    private final Consumer<String> progress;
    private final StartedParts started;
    private EmbeddedInfrastructure infrastructure;
    private ChangeCapture capture;
    private OnnxEmbedder model;
    private TokenChunker chunker;
    private HybridStore store;
    private IndexMaterializer materializer;
    private IndexLogCatchUp indexCatchUp;
    private DeadLetterSink unreadable;
    private KafkaStreams ingest;
    private KafkaStreams query;
    private QueryWiring queryWiring;
    private List<SourceRegistration> sources;
    private final CaptureStartGate captureStartGate = new CaptureStartGate(System::nanoTime);

    private PipelineRuntime(ChartstreamConfig config, Path dir, Consumer<String> progress, Role role) {
        this.config = config;
        this.role = role;
        this.dir = dir;
        this.progress = progress;
        this.started = new StartedParts(progress);
    }

    /**
     * Starts the pipeline under {@code dir}. The broker is embedded unless {@code kafka.bootstrap} names one; a
     * postgres source without a host is the embedded PostgreSQL (loaded by {@code loader} when first created),
     * every other source is read where its connection keys point.
     */
    public static PipelineRuntime start(ChartstreamConfig config, Path dir, SourceLoader loader, Consumer<String> progress) {
        return start(config, dir, loader, progress, Role.ALL);
    }

    /** Starts only the parts of {@code role} (a query process starts no source database and no Debezium). */
    public static PipelineRuntime start(ChartstreamConfig config, Path dir, SourceLoader loader, Consumer<String> progress, Role role) {
        PipelineRuntime runtime = new PipelineRuntime(config, dir, progress, role);
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
        sources = SourceRegistrations.all(config);
        infrastructure = started.add(EmbeddedInfrastructure.start(config, dir, sources, role, loader, progress));
        createTopics();
        unreadable = started.add(new DeadLetterSink(bootstrapServers(), kafkaClientProperties(), Topics.DEAD_LETTER, new UnreadableRecordCounts()));

        long t = System.nanoTime();
        model = started.add(OnnxEmbedder.load(ModelDescriptor.byId(config.string("embedding.model")), (int) config.integer("embedding.threads")));
        progress.accept(String.format("model %s loaded (%.1f s)", model.modelId(), secondsSince(t)));
        if (role.answers()) {
            t = System.nanoTime();
            store = started.add(StoreSelection.open(config, dir.resolve("index"), model.dimension()));
            progress.accept(String.format("%s store opened (%.1f s)", config.string("store.kind"), secondsSince(t)));
            unreadable.counts().register(Topics.INDEX, IndexMaterializer.CONSUMER_NAME);
            materializer = started.add(new IndexMaterializer(bootstrapServers(), kafkaClientProperties(), Topics.INDEX, store,
                    Duration.ofSeconds(1), new IndexContract(model.dimension(), model.modelId()), unreadable).start());
            indexCatchUp = started.add(new IndexLogCatchUp(bootstrapServers(), kafkaClientProperties(), Topics.INDEX,
                    materializer::committedPositions));
        }

        chunker = chunker(config, model);
        if (role.ingests()) {
            IngestSettings ingestSettings = new IngestSettings(sources, (int) config.integer("ingest.batch-chunks"),
                    Duration.ofMillis(config.integer("ingest.linger-ms")), Topics.INDEX, Topics.DEAD_LETTER)
                    .withLimits((int) config.integer("ingest.max-field-bytes"), maxRecordBytes())
                    .withQuiet(Duration.ofMillis(config.integer("ingest.quiet-ms")))
                    .withEmbedding(config.ingestPartitions(), instanceName());
            unreadable.counts().register(ingestSettings.embedTopic(), IngestTopology.EMBEDDING_CONSUMER_NAME);
            PassageEmbedder ingestModel = ModelThread.lowered(PassageEmbedder.of(model), (int) config.integer("ingest.model-nice"), started);
            ingest = streams(INGEST_APPLICATION_ID, IngestTopology.build(ingestSettings, chunker::chunkUnderHeader, ingestModel,
                    unreadable.counts()),
                    ingestStreamsSettings(config).properties(), captureStartGate);
        }
        if (role.answers()) {
            queryWiring = QueryWiring.create(config, model, store, indexCatchUp);
            query = streams(QUERY_APPLICATION_ID, queryWiring.topology(), QueryWiring.streamsSettings(config));
            startStatusPublisher();
        }

        capture = started.add(new ChangeCapture(dir.resolve("debezium"), bootstrapServers(), kafkaClientProperties(),
                maxRecordBytes(), (int) config.integer("ingest.max-field-bytes"), progress));
        if (role.captures(config)) {
            awaitIngestGroupBeforeCapture();
        }
        for (SourceRegistration source : role.captures(config) ? sources : List.<SourceRegistration>of()) {
            capture.start(source, infrastructure.connections().get(source.sourceId()),
                    Long.parseLong(config.sourceValue(source.sourceId(), "poll-interval-ms")));
        }
    }

    private void createTopics() {
        List<PipelineTopics.Spec> specs = new ArrayList<>();
        for (String topic : List.of(Topics.REPLIES, Topics.AUDIT, Topics.DEAD_LETTER, Topics.INGEST_CONTROL)) {
            specs.add(new PipelineTopics.Spec(topic, 1, false));
        }
        if (role.answers()) {
            // created by a query process only: its count is the query side's setting (an ingest process never reads it)
            specs.add(new PipelineTopics.Spec(Topics.REQUESTS, (int) config.integer("query.partitions"), false));
        }
        specs.add(new PipelineTopics.Spec(Topics.INDEX, (int) config.integer("index.partitions"), false));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_STATUS, 1, true));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_EMBED, config.ingestPartitions(), false));
        specs.add(new PipelineTopics.Spec(Topics.INGEST_PROGRESS, 1, true));
        specs.add(new PipelineTopics.Spec(Topics.STORE_STATUS, 1, true));
        List<String> singlePartition = new ArrayList<>(List.of(Topics.INGEST_CONTROL));
        for (SourceRegistration source : sources) {
            if (!infrastructure.connections().containsKey(source.sourceId())) {
                continue; // an embedded source seen from a query process: its ingest process creates the topics
            }
            for (String topic : DebeziumConfigs.topicsFor(infrastructure.connections().get(source.sourceId()), source.topicPrefix())) {
                specs.add(new PipelineTopics.Spec(topic, 1, false));
                singlePartition.add(topic);
            }
            // Debezium's snapshot notices: the ingest side publishes a single-row first table on them. One partition,
            // like the change topics, so the notices reach the task that holds the tables' generation state.
            specs.add(new PipelineTopics.Spec(source.notificationTopic(), 1, false));
            singlePartition.add(source.notificationTopic());
        }
        PipelineTopics.ensure(bootstrapServers(), kafkaClientProperties(), specs, singlePartition, maxRecordBytes());
        if (role.answers()) {
            requireRequestPartitions(PipelineTopics.partitionCount(bootstrapServers(), kafkaClientProperties(), Topics.REQUESTS));
        }
        if (role.ingests()) {
            requireEmbeddingPartitions();
        }
    }

    /**
     * The embedding task of repartition partition p writes index-log partition p only (so that a generation's
     * marker follows that partition's rows on every index-log partition): both topics must have the configured
     * count. Checked, never changed: another count would send a row's events to another task than its earlier ones.
     */
    private void requireEmbeddingPartitions() {
        for (String topic : List.of(Topics.INGEST_EMBED, Topics.INDEX)) {
            int actual = PipelineTopics.partitionCount(bootstrapServers(), kafkaClientProperties(), topic);
            if (actual != config.ingestPartitions()) {
                throw config.invalid("ingest.partitions", topic + " exists with " + actual + " partition(s), not "
                        + config.ingestPartitions() + "; the ingest repartition topic and the index log must both have"
                        + " ingest.partitions = index.partitions partitions: set " + actual + ", or start on a new broker or topic set");
            }
        }
    }

    /** The name this process's embedding tasks report their progress under: host and run directory (one per process). */
    private String instanceName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + dir.toAbsolutePath();
    }

    /**
     * A conversation's memory, request ids and turn order live with the task of its request partition (the topic is
     * keyed by conversation id): another partition count maps conversations to other tasks, which know nothing of
     * them. So the count is checked, never changed.
     */
    private void requireRequestPartitions(int actual) {
        long configured = config.integer("query.partitions");
        if (actual != configured) {
            throw config.invalid("query.partitions", Topics.REQUESTS + " exists with " + actual + " partition(s); the count of an"
                    + " existing request topic cannot change (conversations would move away from their memory): set " + actual
                    + ", or start on a new broker or topic set");
        }
    }

    /** {@code kafka.max-record-bytes}: producers' {@code max.request.size}; topics accept it plus batch overhead. */
    private int maxRecordBytes() {
        return (int) config.integer("kafka.max-record-bytes");
    }

    private void startStatusPublisher() {
        started.add(new StoreStatusPublisher(bootstrapServers(), kafkaClientProperties(), this::storeStatus, progress).start());
    }

    /** What the store's readers see now, per registered table, and how far the store has read the index log. */
    public StoreStatus storeStatus() {
        Map<String, Long> active = new TreeMap<>();
        Map<String, Long> rows = new TreeMap<>();
        Map<TableRef, Long> generations = store.activeGenerations();
        for (SourceRegistration source : sources) {
            for (String table : source.tables().keySet()) {
                TableRef ref = new TableRef(source.sourceId(), table);
                active.put(ref.id(), generations.getOrDefault(ref, 0L));
                rows.put(ref.id(), store.countRows(ref));
            }
        }
        return new StoreStatus(instanceName(), System.currentTimeMillis(), Topics.INDEX, active, rows, materializer.committedPositions());
    }

    /**
     * Holds change data capture back until the ingest group's start-up rebalance is over (see {@link CaptureStartGate}),
     * at most {@value #CAPTURE_GATE_BOUND_SECONDS} s. The settle period is two of the ingest consumers' heartbeats: a
     * member learns of a follow-up rebalance at its next one.
     */
    private void awaitIngestGroupBeforeCapture() throws InterruptedException {
        long t = System.nanoTime();
        Duration settle = Duration.ofMillis(2L * CONSUMER_HEARTBEAT_MS);
        try (IngestGroupMembers members = new IngestGroupMembers(bootstrapServers(), kafkaClientProperties(), INGEST_APPLICATION_ID)) {
            CaptureStartGate.Reason reason = captureStartGate.await(settle, Duration.ofSeconds(CAPTURE_GATE_BOUND_SECONDS),
                    Duration.ofMillis(100), () -> members.othersThan(ingest));
            progress.accept(String.format("ingest group %s (%.1f s); starting change data capture", switch (reason) {
                case RUNNING_ALONE -> "running, no other instance";
                case SETTLED -> "settled with the other instances";
                case STOPPED -> "stopped (" + ingest.state() + ")";
                case TIMED_OUT -> "still rebalancing after " + CAPTURE_GATE_BOUND_SECONDS + " s";
            }, secondsSince(t)));
        }
    }

    /** Bound of the wait for the ingest group before capture starts (capture is correct without it). */
    static final int CAPTURE_GATE_BOUND_SECONDS = 60;

    /** A started Kafka Streams client whose state changes nothing here listens to. */
    private KafkaStreams streams(String applicationId, Topology topology, Map<String, String> overrides) throws IOException {
        return streams(applicationId, topology, overrides, null);
    }

    /**
     * @param overrides     the topology's own Streams settings, over the shared {@link #streamsProperties}
     * @param stateListener told of every state change, from before the client starts; null for none
     */
    private KafkaStreams streams(String applicationId, Topology topology, Map<String, String> overrides,
                                 KafkaStreams.StateListener stateListener) throws IOException {
        Properties p = streamsProperties(applicationId, bootstrapServers(), kafkaClientProperties(), Files.createDirectories(dir.resolve("streams")));
        p.putAll(overrides);
        // a row image or an index event of a row near the field cap is larger than Kafka's 1 MB defaults
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), Integer.toString(maxRecordBytes()));
        p.put(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), Integer.toString(PipelineTopics.maxMessageBytes(maxRecordBytes())));
        KafkaStreams streams = new KafkaStreams(topology, p);
        streams.setUncaughtExceptionHandler(e -> {
            progress.accept(applicationId + " stopped on an error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        if (stateListener != null) {
            streams.setStateListener(stateListener);
        }
        streams.start();
        started.add(() -> streams.close(Duration.ofSeconds(10)));
        return streams;
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

    /** The key of a table in the count maps: the table name with one source, {@code source:table} with several. */
    private String countKey(SourceRegistration source, String table) {
        return sources.size() == 1 ? table : new TableRef(source.sourceId(), table).id();
    }

    /** Rows per registered table in the source databases. */
    public Map<String, Long> sourceRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SourceRegistration source : sources) {
            SourceConnection connection = infrastructure.connections().get(source.sourceId());
            try (Connection c = connection(source.sourceId()); Statement s = c.createStatement()) {
                for (String table : config.sourceList(source.sourceId(), "tables")) {
                    try (ResultSet rs = s.executeQuery("select count(*) from " + SourceDatabases.qualifiedTable(connection, table))) {
                        rs.next();
                        counts.put(countKey(source, table), rs.getLong(1));
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot count source rows of " + source.sourceId() + ": " + e.getMessage(), e);
            }
        }
        return counts;
    }

    /** A new JDBC connection to a registered source (the embedded PostgreSQL as its superuser). */
    public Connection connection(String sourceId) throws SQLException {
        return infrastructure.connection(sourceId);
    }

    /** Rows per registered table visible in the index's active generations. */
    public Map<String, Long> indexedRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (SourceRegistration source : sources) {
            for (String table : config.sourceList(source.sourceId(), "tables")) {
                counts.put(countKey(source, table), store.countRows(new TableRef(source.sourceId(), table)));
            }
        }
        return counts;
    }

    /** Blocks until the store has a published generation to search (a query process that has no source to count). */
    public void awaitStoreReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastReport = System.nanoTime();
        while (!store.ready()) {
            checkHealthy();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no published index generation within " + timeout.toSeconds() + " s: is the ingest process running?");
            }
            if (System.nanoTime() - lastReport > 5_000_000_000L) {
                lastReport = System.nanoTime();
                progress.accept("waiting for the first published generation on " + Topics.INDEX);
            }
            sleep(250);
        }
        progress.accept("store ready: " + store.chunkCount() + " chunks searchable");
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

    /** Throws if a part of the pipeline has stopped on an error. */
    public void checkHealthy() {
        if (materializer != null && materializer.failure() != null) {
            throw new IllegalStateException("index materializer failed: " + materializer.failure().getMessage(), materializer.failure());
        }
        Optional<Throwable> captureFailure = capture.failure();
        if (captureFailure.isPresent()) {
            throw new IllegalStateException("change data capture failed: " + captureFailure.get().getMessage(), captureFailure.get());
        }
        for (KafkaStreams s : java.util.stream.Stream.of(ingest, query).filter(java.util.Objects::nonNull).toList()) {
            if (s.state() == KafkaStreams.State.ERROR || s.state() == KafkaStreams.State.NOT_RUNNING
                    || s.state() == KafkaStreams.State.PENDING_SHUTDOWN) {
                throw new IllegalStateException("a Kafka Streams topology stopped (state " + s.state() + ")");
            }
        }
    }

    public Role role() {
        return role;
    }

    /**
     * Null when every Debezium task this process runs has started and the ingest topology is running (an ingest
     * process is then doing its work), else what is still starting. Null on a query-only runtime. Sources captured
     * by a Kafka Connect worker elsewhere have no task here.
     */
    public String captureProblem() {
        if (!role.ingests()) {
            return null;
        }
        String problem = capture.problem();
        if (problem != null) {
            return problem;
        }
        if (ingest == null || ingest.state() != KafkaStreams.State.RUNNING) {
            return "the ingest topology is " + (ingest == null ? "not started" : ingest.state().name().toLowerCase(java.util.Locale.ROOT));
        }
        return null;
    }

    /** Creates topics on the embedded broker (idempotent), e.g. a caller's own reply topic. */
    public void createTopics(Map<String, Integer> nameToPartitions) {
        List<PipelineTopics.Spec> specs = new ArrayList<>();
        nameToPartitions.forEach((name, partitions) -> specs.add(new PipelineTopics.Spec(name, partitions, false)));
        PipelineTopics.ensure(bootstrapServers(), kafkaClientProperties(), specs, List.of(), maxRecordBytes());
    }

    public String bootstrapServers() {
        return infrastructure.bootstrapServers();
    }

    /** Transport security settings for any further Kafka client of this runtime's broker (empty when embedded). */
    public Map<String, String> kafkaClientProperties() {
        return infrastructure.kafkaSecurity();
    }

    /** The ingest topology's Kafka Streams instance. */
    public KafkaStreams ingestStreams() {
        return ingest;
    }

    /** The query topology's Kafka Streams instance. */
    public KafkaStreams queryStreams() {
        return query;
    }

    /** The query side: its pipeline (run observers) and admission control. */
    public QueryWiring queryWiring() {
        return queryWiring;
    }

    /** The Kafka Streams application id of the ingest topology (its consumer group). */
    public static final String INGEST_APPLICATION_ID = "chartstream-ingest";

    /** The Kafka Streams application id of the query topology (its consumer group). */
    public static final String QUERY_APPLICATION_ID = "chartstream-query";

    public List<SourceRegistration> sources() {
        return sources;
    }

    /** Every registered table, source by source in configuration order. */
    public List<TableRef> registeredTables() {
        return sources.stream().flatMap(s -> s.tables().keySet().stream().map(t -> new TableRef(s.sourceId(), t))).toList();
    }

    public IndexMaterializer materializer() {
        return materializer;
    }

    /** Where this process's readers of internal topics dead-letter and count the records they skip. */
    public DeadLetterSink unreadableRecords() {
        return unreadable;
    }

    /** The embedded PostgreSQL source; null when every source has a host or this process does not ingest. */
    public EmbeddedPostgresSource postgres() {
        return infrastructure.postgres();
    }

    /** The store (per {@code store.kind}); null in an ingest-only process. */
    public HybridStore store() {
        return store;
    }

    /** The ingest's chunker as configured ({@code chunk.*}). */
    public static TokenChunker chunker(ChartstreamConfig config, OnnxEmbedder model) {
        int window = (int) config.integer("chunk.window-tokens");
        TokenChunker base = window == 0 ? model.chunker() : model.chunker(window, (int) config.integer("chunk.overlap-tokens"));
        return base.withLeadTokens((int) config.integer("chunk.lead-tokens"));
    }

    /** The chunker the ingest topology uses. */
    public TokenChunker chunker() {
        return chunker;
    }

    public OnnxEmbedder model() {
        return model;
    }

    public String sourceId() {
        return sources.get(0).sourceId();
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    static double secondsSince(long nanos) {
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
        started.close();
        if (queryWiring != null) {
            queryWiring.close();
        }
    }
}
