package org.chartstream.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.chartstream.ingest.IngestSettings;
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
 * {@link EmbeddedInfrastructure}). Started in dependency order and stopped in reverse ({@link #stop}): change data
 * capture first, then the query and ingest Streams clients (each commits and checkpoints its stores), the store, the
 * model, PostgreSQL and the broker last. A process that answers publishes what its store serves ({@link StoreStatus})
 * on {@code chartstream.store.status}.
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
    private StreamsClients streams;
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
        new RuntimeTopics(config, role, sources, infrastructure.connections(), bootstrapServers(), kafkaClientProperties(),
                maxRecordBytes()).ensure();
        streams = new StreamsClients(bootstrapServers(), kafkaClientProperties(), dir.resolve("streams"), maxRecordBytes(), started, progress);
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
                    .withEmbedding(config.ingestPartitions(), instanceName())
                    .withVectorCache((int) config.integer("ingest.vector-cache-texts"));
            unreadable.counts().register(ingestSettings.embedTopic(), IngestTopology.EMBEDDING_CONSUMER_NAME);
            PassageEmbedder ingestModel = ModelThread.lowered(PassageEmbedder.of(model), (int) config.integer("ingest.model-nice"), started);
            ingest = streams.start(INGEST_APPLICATION_ID, IngestTopology.build(ingestSettings, chunker::chunkUnderHeader, ingestModel,
                    unreadable.counts()),
                    StreamsClients.ingestStreamsSettings(config).properties(), captureStartGate);
        }
        if (role.answers()) {
            queryWiring = started.add(QueryWiring.create(config, model, store, indexCatchUp));
            query = streams.start(QUERY_APPLICATION_ID, queryWiring.topology(), QueryWiring.streamsSettings(config));
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
        if (role.captures(config)) {
            started.add(SourceCatalogWatch.started(config, sources, infrastructure, bootstrapServers(), kafkaClientProperties(), progress));
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

    /** {@code kafka.max-record-bytes}: producers' {@code max.request.size}; topics accept it plus batch overhead. */
    private int maxRecordBytes() {
        return (int) config.integer("kafka.max-record-bytes");
    }

    private void startStatusPublisher() {
        started.add(new StoreStatusPublisher(bootstrapServers(), kafkaClientProperties(), this::storeStatus, progress).start());
    }

    /** What the store's readers see now, per registered table, and how far the store has read the index log. */
    public StoreStatus storeStatus() {
        return StoreStatus.now(instanceName(), registeredTables(), store, Topics.INDEX, materializer.committedPositions());
    }

    /**
     * Holds change data capture back until the ingest group's start-up rebalance is over (see {@link CaptureStartGate}),
     * at most {@value #CAPTURE_GATE_BOUND_SECONDS} s. The settle period is two of the ingest consumers' heartbeats: a
     * member learns of a follow-up rebalance at its next one.
     */
    private void awaitIngestGroupBeforeCapture() throws InterruptedException {
        long t = System.nanoTime();
        Duration settle = Duration.ofMillis(2L * StreamsClients.CONSUMER_HEARTBEAT_MS);
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

    /** Rows per registered table in the source databases. */
    public Map<String, Long> sourceRowCounts() {
        return indexedRows().sourceRowCounts();
    }

    /** A new JDBC connection to a registered source (the embedded PostgreSQL as its superuser). */
    public Connection connection(String sourceId) throws SQLException {
        return infrastructure.connection(sourceId);
    }

    /** Rows per registered table visible in the index's active generations. */
    public Map<String, Long> indexedRowCounts() {
        return indexedRows().indexedRowCounts();
    }

    /** Blocks until the store has a published generation to search (a query process that has no source to count). */
    public void awaitStoreReady(Duration timeout) {
        indexedRows().awaitStoreReady(timeout);
    }

    /** Blocks until every registered table's active generation holds as many rows as the source. */
    public void awaitSearchable(Duration timeout) {
        indexedRows().awaitSearchable(timeout);
    }

    private IndexedRows indexedRows() {
        return new IndexedRows(sources, infrastructure, store, this::checkHealthy, progress,
                () -> new IngestProgressTail(bootstrapServers(), kafkaClientProperties()));
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

    /** Every registered table whose rows are indexed (dictionaries are not), source by source in configuration order. */
    public List<TableRef> registeredTables() {
        return sources.stream().flatMap(s -> SourceRegistrations.indexedTables(s).stream().map(t -> new TableRef(s.sourceId(), t))).toList();
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

    static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    /** Stops every part, the last started first (see the class comment); whether every part stopped cleanly. */
    public boolean stop() {
        return started.stopLogged("pipeline");
    }

    @Override
    public void close() {
        stop();
    }
}
