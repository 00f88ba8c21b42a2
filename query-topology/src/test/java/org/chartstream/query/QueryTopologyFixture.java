package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.catchup.IndexCatchUp;
import org.chartstream.query.reply.RecordingReplySender;
import org.chartstream.query.reply.ReplySender;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.query.scope.IndexedPatientDirectory;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.StandardStages;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.search.SearchIndex;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * The query topology under {@link TopologyTestDriver}, over a real Lucene store and the real ONNX model (embedder and
 * bi-encoder reranker): configure, produce requests, verify the reply events (sent outside the transaction, so kept by
 * a {@link RecordingReplySender}), audit records and dead letters.
 *
 * <pre>{@code
 * QueryTopologyFixture f = QueryTopologyFixture.open(dir);
 * f.index(List.of(f.chunk("medications", "m1", "record: medications ...").patient("MRN-1").build()));
 * f.start("query-test", null, (serving, replies) -> QueryTopology.build(serving, streamsConfig -> topic -> true, replies));
 * f.produce("conv-1", QueryTopologyFixture.bytes(request), "chartstream.replies.test", "corr-1");
 * f.awaitIdle();
 * List<ReplyEvent> events = f.replies("chartstream.replies.test").readValuesToList();
 * }</pre>
 */
final class QueryTopologyFixture implements AutoCloseable {
    static final String SOURCE = "ehr";
    static final int WORKERS = 2;
    static final int ADMISSION_LIMIT = 4;
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);

    /**
     * The topology under test, given what serves it (the pipeline, {@link QueryTransportSettings#defaults()},
     * {@link RequestIntegrity#defaults()}, no replica catch-up) and where its replies go.
     */
    @FunctionalInterface
    interface TopologyFactory {
        Topology build(QueryServing serving, Function<Map<String, Object>, ReplySender> replies);
    }

    private final Path dir;
    private final OnnxEmbedder model;
    private final LuceneHybridStore store;
    private ExecutorService searchExecutor;
    private ExecutorService workers;
    private AdmissionControl admission;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> requests;
    private final RecordingReplySender replies = new RecordingReplySender();
    private TestOutputTopic<String, AnswerAudit> audit;
    private TestOutputTopic<String, DeadLetter> deadLetters;

    private QueryTopologyFixture(Path dir, OnnxEmbedder model, LuceneHybridStore store) {
        this.dir = dir;
        this.model = model;
        this.store = store;
    }

    /** The model loaded and an empty Lucene store under {@code dir}; nothing runs until {@link #start}. */
    static QueryTopologyFixture open(Path dir) {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        OnnxEmbedder model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        return new QueryTopologyFixture(dir, model, LuceneHybridStore.open(dir.resolve("index")));
    }

    static byte[] bytes(QueryRequest request) {
        return REQUESTS.serialize(request);
    }

    /** A chunk of an {@link #SOURCE} row, embedded by the model (the rest: {@link ChunkFixture}'s defaults). */
    ChunkFixture chunk(String table, String rowKey, String text) {
        return ChunkFixture.of(SOURCE, table, rowKey).text(text).vector(model.embedPassages(List.of(text))[0]).model(model.modelId());
    }

    /** Writes the chunks, row by row, publishes their tables and commits. */
    void index(List<StoredChunk> chunks) {
        Map<RowRef, List<StoredChunk>> rows = new LinkedHashMap<>();
        chunks.forEach(c -> rows.computeIfAbsent(c.row(), r -> new ArrayList<>()).add(c));
        Map<TableRef, Long> tables = new LinkedHashMap<>();
        rows.forEach((row, rowChunks) -> {
            long generation = rowChunks.get(0).generation();
            store.upsertRow(row, generation, rowChunks);
            tables.merge(row.tableRef(), generation, Math::max);
        });
        tables.forEach(store::publish);
        store.commit(Map.of());
    }

    /**
     * Starts the topology (stopping one started before) over the store.
     *
     * @param chatModel the generation endpoint, or null for extractive answers
     */
    void start(String applicationId, ChatModel chatModel, TopologyFactory topology) {
        start(applicationId, chatModel, Map.of(), topology);
    }

    /** The same, whole-set questions planned on the tables {@code bindings} bind (by source id). */
    void start(String applicationId, ChatModel chatModel, Map<String, SourceBinding> bindings, TopologyFactory topology) {
        stop();
        searchExecutor = Executors.newFixedThreadPool(2);
        workers = Executors.newFixedThreadPool(WORKERS);
        admission = new AdmissionControl(ADMISSION_LIMIT, ADMISSION_LIMIT);
        QuerySettings settings = QuerySettings.defaults();
        QueryPipeline pipeline = new QueryPipeline(StandardStages.of(QueryEmbedder.of(model), SearchIndex.of(store), searchExecutor, settings,
                new BiEncoderReranker(model), model.tokenizer()::countTokens, chatModel,
                new IndexedPatientDirectory(store, "patients"), bindings), settings);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
        props.putAll(new QueryStreamsSettings(1000, 5).properties()); // the defaults of query.commit-interval-ms and query.poll-ms
        replies.clear();
        QueryServing serving = new QueryServing(pipeline, QueryTransportSettings.defaults(), () -> store.activeGenerations().keySet(),
                workers, admission, RequestIntegrity.defaults(), IndexCatchUp.NONE);
        driver = new TopologyTestDriver(topology.build(serving, config -> replies), props);
        requests = driver.createInputTopic(Topics.REQUESTS, new StringSerializer(), new ByteArraySerializer());
        audit = driver.createOutputTopic(Topics.AUDIT, new StringDeserializer(), AvroSerde.of(AnswerAudit.class));
        deadLetters = driver.createOutputTopic(Topics.DEAD_LETTER, new StringDeserializer(), AvroSerde.of(DeadLetter.class));
    }

    /** Closes the running topology and its threads; the store and the model stay open. */
    void stop() {
        if (driver == null) {
            return;
        }
        driver.close();
        workers.shutdownNow();
        searchExecutor.shutdownNow();
        driver = null;
    }

    @Override
    public void close() {
        stop();
        store.close();
        model.close();
    }

    /** A request record with the given headers (each left out when null); does not wait for its replies. */
    void produce(String key, byte[] value, String replyTo, String correlationId) {
        RecordHeaders headers = new RecordHeaders();
        if (replyTo != null) {
            headers.add(Topics.HEADER_REPLY_TO, replyTo.getBytes(StandardCharsets.UTF_8));
        }
        if (correlationId != null) {
            headers.add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        }
        requests.pipeInput(new TestRecord<>(key, value, headers));
    }

    /** Requests run on worker threads; their replies leave on a wall-clock punctuation: pump it until all are out. */
    void awaitIdle() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        do {
            advance();
            sleep(5);
        } while (admission.inFlight() > 0 && System.nanoTime() < deadline);
        advance();
        assertThat(admission.inFlight()).as("requests still in flight").isZero();
    }

    /** Moves the wall clock past one delivery punctuation. */
    void advance() {
        driver.advanceWallClockTime(Duration.ofMillis(20));
    }

    /** Occupies every worker thread until the returned latch is counted down. */
    CountDownLatch holdWorkers() {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(WORKERS);
        for (int i = 0; i < WORKERS; i++) {
            workers.execute(() -> {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try {
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return release;
    }

    AdmissionControl admission() {
        return admission;
    }

    /** The replies sent to {@code topic}. */
    RecordingReplySender.Topic replies(String topic) {
        return replies.topic(topic);
    }

    /** Where the topology sends its replies (to hold or fail acknowledgements). */
    RecordingReplySender replySender() {
        return replies;
    }

    TestOutputTopic<String, AnswerAudit> audit() {
        return audit;
    }

    TestOutputTopic<String, DeadLetter> deadLetters() {
        return deadLetters;
    }

    /** Reads away every reply sent so far, the audit topic and the dead-letter topic. */
    void drain() {
        replies.clear();
        audit.readRecordsToList();
        deadLetters.readRecordsToList();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
