package org.chartstream.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.chartstream.client.QueryClient;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.evaluation.RankingMetrics;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.runtime.StreamsClients;
import org.chartstream.runtime.QueryWiring;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * Request → final reply through the real query topology on the embedded broker, with no LLM endpoint (extractive
 * answers), over a Lucene index of N clustered chunks, with the query topology's Kafka Streams settings of the
 * runtime ({@link StreamsClients#streamsProperties}, {@link QueryWiring#streamsSettings}). C clients each send
 * requests one after another; the gate is opened (threshold −1) so every request runs every stage, and admission is
 * fixed at 256 so that none is turned away ({@code bench load} measures admission). Per-stage times come from the
 * audit records.
 */
public final class QueryBench {
    /** One run's figures. */
    public record Result(int chunks, int clients, int requests, double p50Ms, double p95Ms, double rps,
                         Map<String, Double> stageP50Ms, Map<String, Double> hopP50Ms, Index index) {
        public String toJson() {
            return String.format(Locale.ROOT, "{\"chunks\":%d, \"clients\":%d, \"p50_ms\":%.1f, \"p95_ms\":%.1f, \"stages_ms\":%s,"
                    + " \"hops_ms\":%s, \"requests\":%d, \"requests_per_s\":%.2f, \"index_s\":%.1f, \"merge_wait_s\":%.1f,"
                    + " \"segments\":%d}", chunks, clients, p50Ms, p95Ms, json(stageP50Ms), json(hopP50Ms), requests, rps,
                    index.buildSeconds(), index.mergeWaitSeconds(), index.segments());
        }

        private static String json(Map<String, Double> values) {
            StringBuilder out = new StringBuilder("{");
            values.forEach((k, v) -> out.append(out.length() > 1 ? ", " : "").append('"').append(k).append("\":")
                    .append(String.format(Locale.ROOT, "%.1f", v)));
            return out.append('}').toString();
        }
    }

    /**
     * The searched index: seconds to build it and to wait for its background merges (both 0 when an earlier run's
     * index was reused), and the segments searched (each with its own HNSW graph).
     */
    public record Index(double buildSeconds, double mergeWaitSeconds, int segments) {
    }

    private QueryBench() {
    }

    /** The command's one last JSON object: the run itself for one client count, {@code {"runs":[…]}} for several. */
    public static String lastLine(List<Result> results) {
        if (results.size() == 1) {
            return results.get(0).toJson();
        }
        return results.stream().map(Result::toJson).collect(java.util.stream.Collectors.joining(", ", "{\"runs\":[", "]}"));
    }

    /**
     * With {@code config}'s query settings (e.g. {@code query.poll-ms}, {@code query.commit-interval-ms}).
     *
     * @param indexDir where the index is kept for later runs (reused when it holds one of {@code chunks} chunks whose
     *                 merges were awaited); null for a temporary index
     * @param sharedReplyReader whether the C clients share one {@link QueryClient} (one consumer reading the reply
     *                 topic for all) instead of a client each
     */
    public static List<Result> run(ChartstreamConfig config, int chunks, List<Integer> clientCounts, int requestsPerClient,
                                   Path indexDir, boolean sharedReplyReader, PrintWriter progress) throws IOException, InterruptedException {
        Map<String, String> noAdmissionLimit = Map.of("query.admission-limit", "256", "query.admission-min-limit", "256");
        return withTopology(config, chunks, indexDir, noAdmissionLimit, progress, (bootstrap, corpus, index, admission) -> {
            List<Result> results = new ArrayList<>();
            for (int clients : clientCounts) {
                progress.printf(Locale.ROOT, "%d client(s) x %d requests...%n", clients, requestsPerClient);
                progress.flush();
                results.add(measure(bootstrap, corpus, chunks, clients, requestsPerClient, index, sharedReplyReader));
                progress.println(results.get(results.size() - 1).toJson());
                progress.flush();
            }
            return results;
        });
    }

    /** What runs against the started query topology. */
    interface TopologyRun<T> {
        T run(String bootstrapServers, ClusteredCorpus corpus, Index index, AdmissionControl admission) throws InterruptedException;
    }

    /**
     * Builds the clustered index (or reuses the one in {@code indexDir}) and waits for its background merges, starts
     * the embedded broker and the real query topology (no LLM endpoint, gate opened) with the given configuration
     * overrides, warms it up and runs {@code body} against it. Queries measured while a merge rebuilds HNSW graphs on
     * the same cores would measure the merge too (it ran through every run before session 8).
     */
    static <T> T withTopology(ChartstreamConfig base, int chunks, Path indexDir, Map<String, String> configOverrides,
                              PrintWriter progress, TopologyRun<T> body) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("chartstream-bench-query");
        ChartstreamConfig config = base.with("data.dir", dir.toString()).with("gate.threshold.bi-encoder", "-1");
        for (Map.Entry<String, String> e : configOverrides.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        StoreBench.Settings storeSettings = StoreBench.Settings.defaults(chunks);
        ClusteredCorpus corpus = new ClusteredCorpus(chunks, storeSettings.dimension(), storeSettings.clusters(),
                storeSettings.noise(), storeSettings.seed());
        Path indexPath = indexDir == null ? dir.resolve("index") : indexDir;
        boolean reuse = indexDir != null && reusable(indexDir, chunks);
        try (LuceneHybridStore store = LuceneHybridStore.open(indexPath);
             OnnxEmbedder model = OnnxEmbedder.load(ModelDescriptor.byId(config.string("embedding.model")), 2);
             EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start(dir.resolve("kafka"))) {
            Index index = prepare(store, reuse, corpus, storeSettings, progress);
            progress.printf(Locale.ROOT, "index %s: %d segments%n", reuse ? "reused from " + indexPath : "built", index.segments());
            broker.createTopics(Map.of(Topics.REQUESTS, 1, Topics.REPLIES, 1, Topics.AUDIT, 1, Topics.DEAD_LETTER, 1));
            try (QueryWiring wiring = QueryWiring.create(config, model, store)) {
                Properties p = StreamsClients.streamsProperties("chartstream-bench-query", broker.bootstrapServers(), Map.of(),
                        dir.resolve("streams"));
                p.putAll(QueryWiring.streamsSettings(config));
                progress.printf(Locale.ROOT, "query topology: %s=%s, %s=%s, %s=%s%n", StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                        p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG), StreamsConfig.COMMIT_INTERVAL_MS_CONFIG,
                        p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG), StreamsConfig.POLL_MS_CONFIG, p.get(StreamsConfig.POLL_MS_CONFIG));
                try (KafkaStreams streams = new KafkaStreams(wiring.topology(), p)) {
                    streams.start();
                    awaitRunning(streams);
                    warmUp(broker.bootstrapServers(), corpus);
                    return body.run(broker.bootstrapServers(), corpus, index, wiring.admission());
                }
            }
        } finally {
            PipelineBenchRuntime.deleteRecursively(dir);
        }
    }

    /** The checkpoint of a finished bench index: its size, and that its merges were awaited. */
    private static Map<String, String> builtIndex(int chunks) {
        return Map.of("bench.chunks", Integer.toString(chunks), "bench.merges", "awaited");
    }

    /** Whether {@code indexDir} holds a finished bench index of {@code chunks} chunks. */
    static boolean reusable(Path indexDir, int chunks) {
        return builtIndex(chunks).equals(LuceneHybridStore.lastCommittedCheckpoint(indexDir));
    }

    /** The index to search: {@code store} as it is when {@code reuse}, else built into it (which must be empty). */
    static Index prepare(LuceneHybridStore store, boolean reuse, ClusteredCorpus corpus, StoreBench.Settings settings,
                         PrintWriter progress) throws InterruptedException {
        if (reuse) {
            return new Index(0, 0, store.searchableSegments());
        }
        if (store.chunkCount() > 0) {
            throw new IllegalStateException("the index directory " + store.path() + " holds another index; give an empty or a bench-built one");
        }
        long t0 = System.nanoTime();
        StoreBench.buildIndex(store, corpus, settings, progress);
        long t1 = System.nanoTime();
        store.awaitMerges();
        store.commit(builtIndex(settings.chunks()));
        return new Index((t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9, store.searchableSegments());
    }

    private static Result measure(String bootstrap, ClusteredCorpus corpus, int chunks, int clients, int perClient,
                                  Index index, boolean sharedReplyReader) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        QueryClient shared = sharedReplyReader ? new QueryClient(bootstrap, Topics.REPLIES) : null;
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        Map<String, RequestHops> hops = new java.util.concurrent.ConcurrentHashMap<>();
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            futures.add(pool.submit(() -> {
                QueryClient q = shared != null ? shared : new QueryClient(bootstrap, Topics.REPLIES);
                try {
                    for (int i = 0; i < perClient; i++) {
                        QueryRequest r = request(corpus.queryText(client * perClient + i), "bench-" + client);
                        Map<ReplyType, Long> firstReadMs = new EnumMap<>(ReplyType.class);
                        long sentMs = System.currentTimeMillis();
                        long t = System.nanoTime();
                        List<ReplyEvent> events = q.ask(r, Duration.ofSeconds(120),
                                e -> firstReadMs.putIfAbsent(e.getType(), System.currentTimeMillis()));
                        latencies.add((System.nanoTime() - t) / 1e6);
                        RequestHops h = RequestHops.of(sentMs, events, firstReadMs);
                        if (h != null) {
                            hops.put(r.getRequestId(), h);
                        }
                    }
                } finally {
                    if (q != shared) {
                        q.close();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a benchmark client failed: " + e.getCause().getMessage(), e.getCause());
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        if (shared != null) {
            shared.close();
        }
        Map<String, Map<String, Double>> stages = stagesByRequest(bootstrap, hops.keySet());
        Map<String, Double> pipelineMs = new TreeMap<>();
        stages.forEach((id, ms) -> {
            if (ms.containsKey("total")) {
                pipelineMs.put(id, ms.get("total"));
            }
        });
        return new Result(chunks, clients, latencies.size(), RankingMetrics.percentile(latencies, 0.5),
                RankingMetrics.percentile(latencies, 0.95), latencies.size() / seconds, stageMedians(stages.values()),
                RequestHops.medians(hops, pipelineMs), index);
    }

    private static void warmUp(String bootstrap, ClusteredCorpus corpus) {
        try (QueryClient q = new QueryClient(bootstrap, Topics.REPLIES)) {
            for (int i = 0; i < 5; i++) {
                q.ask(request(corpus.queryText(10_000 + i), "warm-up"), Duration.ofSeconds(120), e -> { });
            }
        }
    }

    static QueryRequest request(String question, String conversation) {
        return QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setConversationId(conversation + "-" + UUID.randomUUID())
                .setUserId("bench").setQuestion(question).setTopK(6).build();
    }

    /** Median of each stage's time over the measured requests. */
    private static Map<String, Double> stageMedians(java.util.Collection<Map<String, Double>> stagesPerRequest) {
        Map<String, List<Double>> perStage = new TreeMap<>();
        stagesPerRequest.forEach(stages -> stages.forEach((stage, ms) -> perStage.computeIfAbsent(stage, s -> new ArrayList<>()).add(ms)));
        Map<String, Double> medians = new TreeMap<>();
        perStage.forEach((stage, values) -> medians.put(stage, RankingMetrics.percentile(values, 0.5)));
        return medians;
    }

    /** Each measured request's stage times (ms) from its audit record, by request id. */
    private static Map<String, Map<String, Double>> stagesByRequest(String bootstrap, java.util.Set<String> wanted) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Map<String, Double>> perRequest = new TreeMap<>();
        try (KafkaConsumer<String, AnswerAudit> c = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(AnswerAudit.class))) {
            TopicPartition tp = new TopicPartition(Topics.AUDIT, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            while (c.position(tp) < end) {
                for (ConsumerRecord<String, AnswerAudit> r : c.poll(Duration.ofMillis(500))) {
                    if (r.value() != null && wanted.contains(r.value().getRequestId())) {
                        Map<String, Double> stages = new TreeMap<>();
                        r.value().getStageMs().forEach((stage, ms) -> stages.put(stage, ms.doubleValue()));
                        perRequest.put(r.value().getRequestId(), stages);
                    }
                }
            }
        }
        return perRequest;
    }

    private static void awaitRunning(KafkaStreams streams) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline || streams.state() == KafkaStreams.State.ERROR) {
                throw new IllegalStateException("query topology did not start (state " + streams.state() + ")");
            }
            Thread.sleep(100);
        }
    }
}
