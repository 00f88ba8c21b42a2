package org.chartstream.app.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.streams.Topology;
import org.chartstream.app.config.ChartstreamConfig;
import org.chartstream.models.Embedder;
import org.chartstream.query.QueryPipeline;
import org.chartstream.query.QuerySettings;
import org.chartstream.query.QueryTopology;
import org.chartstream.query.embed.QueryEmbedder;
import org.chartstream.store.HybridStore;

/** Builds the query side from the configuration: its settings, the retrieval pipeline and the topology. */
public final class QueryWiring implements AutoCloseable {
    private final ExecutorService searchExecutor;
    private final QueryPipeline pipeline;
    private final QuerySettings settings;

    private QueryWiring(ExecutorService searchExecutor, QueryPipeline pipeline, QuerySettings settings) {
        this.searchExecutor = searchExecutor;
        this.pipeline = pipeline;
        this.settings = settings;
    }

    public static QueryWiring create(ChartstreamConfig config, Embedder model, HybridStore store) {
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "search");
            t.setDaemon(true);
            return t;
        });
        QuerySettings settings = settings(config);
        return new QueryWiring(executor, new QueryPipeline(QueryEmbedder.of(model), store, executor, settings), settings);
    }

    public static QuerySettings settings(ChartstreamConfig config) {
        QuerySettings d = QuerySettings.defaults();
        return new QuerySettings((int) config.integer("query.per-side"), (int) config.integer("query.rrf-k"),
                d.gateScorer(), config.decimal("query.gate-threshold"), d.maxPassageChars(),
                (int) config.integer("query.max-question-chars"), d.maxTopK());
    }

    public QueryPipeline pipeline() {
        return pipeline;
    }

    public Topology topology() {
        return QueryTopology.build(pipeline, settings);
    }

    @Override
    public void close() {
        searchExecutor.shutdownNow();
    }
}
