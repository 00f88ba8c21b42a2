package org.chartstream.app.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.streams.Topology;
import org.chartstream.app.config.ChartstreamConfig;
import org.chartstream.models.Embedder;
import org.chartstream.query.QueryPipeline;
import org.chartstream.query.QuerySettings;
import org.chartstream.query.QueryTopology;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.embed.QueryEmbedder;
import org.chartstream.store.HybridStore;

/** Builds the query side from the configuration: its settings, the retrieval pipeline, workers and the topology. */
public final class QueryWiring implements AutoCloseable {
    private final ExecutorService searchExecutor;
    private final ExecutorService workers;
    private final AdmissionControl admission;
    private final QueryPipeline pipeline;
    private final QuerySettings settings;

    private QueryWiring(ExecutorService searchExecutor, ExecutorService workers, QueryPipeline pipeline, QuerySettings settings) {
        this.searchExecutor = searchExecutor;
        this.workers = workers;
        this.admission = new AdmissionControl(settings.admissionLimit());
        this.pipeline = pipeline;
        this.settings = settings;
    }

    public static QueryWiring create(ChartstreamConfig config, Embedder model, HybridStore store) {
        QuerySettings settings = settings(config);
        ExecutorService search = Executors.newFixedThreadPool(2 * settings.workers(), daemon("search"));
        ExecutorService workers = Executors.newFixedThreadPool(settings.workers(), daemon("query-worker"));
        return new QueryWiring(search, workers, new QueryPipeline(QueryEmbedder.of(model), store, search, settings), settings);
    }

    public static QuerySettings settings(ChartstreamConfig config) {
        QuerySettings d = QuerySettings.defaults();
        return new QuerySettings((int) config.integer("query.per-side"), (int) config.integer("query.rrf-k"),
                d.gateScorer(), config.decimal("query.gate-threshold"), d.maxPassageChars(),
                (int) config.integer("query.max-question-chars"), d.maxTopK(),
                (int) config.integer("query.admission-limit"), (int) config.integer("query.workers"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    public QueryPipeline pipeline() {
        return pipeline;
    }

    public AdmissionControl admission() {
        return admission;
    }

    public Topology topology() {
        return QueryTopology.build(pipeline, settings, workers, admission);
    }

    @Override
    public void close() {
        workers.shutdownNow();
        searchExecutor.shutdownNow();
    }
}
