package org.chartstream.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.apache.kafka.streams.Topology;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.HybridStore;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.models.rerank.CrossEncoderDescriptor;
import org.chartstream.models.rerank.OnnxCrossEncoder;
import org.chartstream.query.QueryServing;
import org.chartstream.query.QueryStreamsSettings;
import org.chartstream.query.QueryTopology;
import org.chartstream.query.QueryTransportSettings;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.catchup.IndexCatchUp;
import org.chartstream.query.request.ReplyTopicPolicy;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.query.scope.IndexedPatientDirectory;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.StandardStages;
import org.chartstream.retrieval.embed.CachingQueryEmbedder;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.SearchIndex;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.runtime.config.QueryKeys;
import org.chartstream.runtime.config.SourceBindings;

/**
 * Builds the query side from the configuration: settings, the reranker actually in use (a cross-encoder when one is
 * configured, else the bi-encoder fallback, each with its own gate threshold), the optional local LLM endpoint, the
 * cached query embedder, worker threads, admission and the topology.
 */
public final class QueryWiring implements AutoCloseable {
    private final ExecutorService searchExecutor;
    private final Reranker reranker;
    private final QueryServing serving;

    private QueryWiring(ExecutorService searchExecutor, Reranker reranker, QueryServing serving) {
        this.searchExecutor = searchExecutor;
        this.reranker = reranker;
        this.serving = serving;
    }

    /** Over a store that is not a replica of the index log (a test's or a benchmark's own index). */
    public static QueryWiring create(ChartstreamConfig config, OnnxEmbedder model, HybridStore store) {
        return create(config, model, store, IndexCatchUp.NONE);
    }

    /** @param catchUp whether {@code store}, a replica of the index log, has caught up with it (each task waits until it has) */
    public static QueryWiring create(ChartstreamConfig config, OnnxEmbedder model, HybridStore store, IndexCatchUp catchUp) {
        QuerySettings settings = settings(config);
        QueryTransportSettings transport = QueryKeys.transport(config);
        int priority = computePriority(config);
        ExecutorService search = Executors.newFixedThreadPool(2 * transport.workers(), computeThreads("search", priority));
        ExecutorService workers = Executors.newFixedThreadPool(transport.workers(), computeThreads("query-worker", priority));
        Reranker reranker = reranker(config, model);
        QueryEmbedder embedder = new CachingQueryEmbedder(QueryEmbedder.of(model), CachingQueryEmbedder.DEFAULT_CAPACITY);
        QueryPipeline pipeline = new QueryPipeline(StandardStages.of(embedder, SearchIndex.of(store), search, settings, reranker,
                model.tokenizer()::countTokens, chatModel(config), patients(config, store), SourceBindings.all(config)), settings);
        return new QueryWiring(search, reranker, new QueryServing(pipeline, transport, () -> store.activeGenerations().keySet(),
                workers, admission(config), integrity(config), catchUp));
    }

    /**
     * The adaptive admission limit within [{@code query.admission-min-limit}, {@code query.admission-limit}]; a lower
     * bound above the upper one is the upper one (so {@code query.admission-limit=1} alone is a fixed limit of 1). A turn
     * behind at most {@code query.turns-past-limit} turns of its conversation in flight is admitted past it.
     */
    static AdmissionControl admission(ChartstreamConfig config) {
        int max = (int) config.integer("query.admission-limit");
        return new AdmissionControl(Math.min((int) config.integer("query.admission-min-limit"), max), max,
                (int) config.integer("query.turns-past-limit"));
    }

    /**
     * The query topology's own Kafka Streams settings. Replies leave outside the transaction, so the commit interval
     * only bounds how much a crash re-runs, while each commit blocks the stream thread ({@code query.commit-interval-ms});
     * {@code poll.ms} is how long the stream thread waits for requests before it looks for finished answers to send
     * ({@code query.poll-ms}).
     */
    public static Map<String, String> streamsSettings(ChartstreamConfig config) {
        return new QueryStreamsSettings(config.integer("query.commit-interval-ms"), config.integer("query.poll-ms")).properties();
    }

    /**
     * Where replies may go ({@code query.reply-topics}, never the pipeline's own topics: those of the configured
     * sources' Debezium prefixes and of both Streams applications included) and how long request ids stay taken.
     */
    public static RequestIntegrity integrity(ChartstreamConfig config) {
        Set<String> prefixes = new TreeSet<>();
        SourceRegistrations.all(config).forEach(source -> prefixes.add(source.topicPrefix()));
        try {
            ReplyTopicPolicy policy = new ReplyTopicPolicy(config.list("query.reply-topics"), prefixes,
                    Set.of(PipelineRuntime.INGEST_APPLICATION_ID, PipelineRuntime.QUERY_APPLICATION_ID));
            return new RequestIntegrity(policy, Duration.ofMillis(config.integer("query.request-id-window-ms")));
        } catch (IllegalArgumentException e) {
            throw config.invalid("query.reply-topics", e.getMessage());
        }
    }

    /** The patients questions can name: the configured patient table's rows in the index. */
    public static PatientDirectory patients(ChartstreamConfig config, HybridStore store) {
        return new IndexedPatientDirectory(store, config.string("source.patient-table"));
    }

    /** The retrieval stages' settings ({@link QueryKeys#querySettings}). */
    public static QuerySettings settings(ChartstreamConfig config) {
        return QueryKeys.querySettings(config);
    }

    static Reranker reranker(ChartstreamConfig config, OnnxEmbedder model) {
        String dir = config.string("rerank.model-dir");
        if (dir.isEmpty()) {
            return new BiEncoderReranker(model);
        }
        Path folder = Path.of(dir);
        Path onnx = folder.resolve("model.onnx");
        Path tokenizer = folder.resolve("tokenizer.json");
        if (!Files.isRegularFile(onnx) || !Files.isRegularFile(tokenizer)) {
            throw new ConfigException("configuration 'rerank.model-dir' = '" + dir + "' must hold model.onnx and tokenizer.json");
        }
        return OnnxCrossEncoder.load(CrossEncoderDescriptor.BGE_RERANKER_V2_M3.withFiles(onnx, tokenizer),
                (int) config.integer("embedding.threads"));
    }

    /** The configured local endpoint, or null: then no rewrite and extractive answers. */
    static ChatModel chatModel(ChartstreamConfig config) {
        String baseUrl = config.string("llm.base-url");
        if (baseUrl.isEmpty()) {
            return null;
        }
        try {
            return new OpenAiCompatibleChatClient(LlmEndpoint.of(baseUrl, config.string("llm.model")).withTimeouts(
                    Duration.ofMillis(config.integer("llm.connect-timeout-ms")), Duration.ofMillis(config.integer("llm.read-timeout-ms")),
                    Duration.ofMillis(config.integer("llm.deadline-ms"))));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration 'llm.base-url' = '" + baseUrl + "': " + e.getMessage());
        }
    }

    /**
     * The Java priority of the pipeline's CPU work (the stages, both search sides), {@code query.compute-priority}. The
     * lowest ({@code low}) becomes nice 4 on Linux when the JVM runs with {@code -XX:ThreadPriorityPolicy=1} (as
     * {@code ./chartstream} starts it; without the flag priorities are ignored): under overload the threads that poll
     * requests, turn them away with {@code busy}, send replies and commit (Kafka's, at normal priority) get a core
     * ahead of the searches instead of queueing behind them. It also yields to every other process on the host, hence
     * not the default.
     */
    static int computePriority(ChartstreamConfig config) {
        return switch (QueryKeys.computePriority(config)) {
            case LOW -> Thread.MIN_PRIORITY;
            case NORMAL -> Thread.NORM_PRIORITY;
        };
    }

    static ThreadFactory computeThreads(String name, int priority) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.setPriority(priority);
            return t;
        };
    }

    public QueryPipeline pipeline() {
        return serving.pipeline();
    }

    /** The reranker in use (a cross-encoder, or the bi-encoder fallback). */
    public Reranker reranker() {
        return reranker;
    }

    public AdmissionControl admission() {
        return serving.admission();
    }

    public Topology topology() {
        return QueryTopology.build(serving);
    }

    @Override
    public void close() {
        serving.workers().shutdownNow();
        searchExecutor.shutdownNow();
        if (!(reranker instanceof BiEncoderReranker)) {
            reranker.close(); // the bi-encoder fallback borrows the runtime's embedding model
        }
    }
}
