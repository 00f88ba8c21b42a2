package org.chartstream.evaluation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.StandardStages;
import org.chartstream.retrieval.embed.CachingQueryEmbedder;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.search.SearchIndex;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.QueryWiring;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The embedded runtime started for one evaluation in a fresh directory (removed again on close), with the
 * evaluation corpus as its source tables, and query pipelines built from the same configuration as the running
 * query topology's.
 */
public final class EvaluationRuntime implements AutoCloseable {
    private final PipelineRuntime runtime;
    private final ChartstreamConfig config;
    private final Path dir;
    private final Consumer<String> progress;
    private final List<AutoCloseable> opened = new java.util.ArrayList<>();
    private final MemoisedBiEncoderScorer scorer;

    private EvaluationRuntime(PipelineRuntime runtime, ChartstreamConfig config, Path dir, Consumer<String> progress) {
        this.runtime = runtime;
        this.config = config;
        this.dir = dir;
        this.progress = progress;
        this.scorer = new MemoisedBiEncoderScorer(runtime.model());
    }

    /**
     * Starts the pipeline under {@code <data.dir>/eval/<name>-<pid>} with {@code tables} as the source's tables,
     * loaded by {@code loader}, and waits until every row is searchable.
     */
    public static EvaluationRuntime start(ChartstreamConfig config, String name, List<String> tables,
                                          PipelineRuntime.SourceLoader loader, Duration searchableWithin,
                                          Consumer<String> progress) throws IOException {
        String sourceId = config.sourceIds().get(0);
        ChartstreamConfig evalConfig = config.with(config.sourceKey(sourceId, "tables"), String.join(",", tables));
        Path dir = config.dataDir().resolve("eval").resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + ProcessHandle.current().pid());
        deleteRecursively(dir);
        PipelineRuntime runtime = PipelineRuntime.start(evalConfig, dir, loader, progress);
        EvaluationRuntime eval = new EvaluationRuntime(runtime, evalConfig, dir, progress);
        try {
            runtime.awaitSearchable(searchableWithin);
        } catch (RuntimeException e) {
            eval.close();
            throw e;
        }
        return eval;
    }

    /**
     * The pipeline for an evaluation mode, built from the configuration as the query topology builds it (without an
     * LLM endpoint: questions are searched as asked). With a cross-encoder configured it is the query topology's own
     * wiring. Otherwise the rerank stage keeps the fused order and scores the prefix with the stored bi-encoder
     * vectors, as shipped; a passage without a stored vector is scored by the bi-encoder with passage embeddings
     * memoised for the run (see {@link MemoisedBiEncoderScorer}).
     */
    public QueryPipeline pipeline(EvalMode mode, int perSide) {
        ChartstreamConfig withDepth = config.with("query.per-side", Integer.toString(perSide));
        if (mode == EvalMode.HYBRID_RRF) {
            withDepth = withDepth.with("query.fusion", "rrf");
        } else if (mode == EvalMode.HYBRID_FIXED) {
            withDepth = withDepth.with("query.fusion", "score");
        }
        if (!config.string("rerank.model-dir").isEmpty()) {
            if (mode == EvalMode.HYBRID_SENTENCES_MEAN || mode == EvalMode.HYBRID_SENTENCES_MAX || mode == EvalMode.HYBRID_SENTENCES_BLEND
                    || mode == EvalMode.HYBRID_SENTENCES_OFF || mode == EvalMode.HYBRID_QUESTIONS_MAX
                    || mode == EvalMode.HYBRID_SENTENCES_STANDOUT) {
                throw new IllegalArgumentException("mode " + mode.label()
                        + " is measured without a cross-encoder; unset rerank.model-dir");
            }
            QueryWiring wiring = QueryWiring.create(withDepth, runtime.model(), runtime.store());
            opened.add(wiring);
            return wiring.pipeline();
        }
        QuerySettings settings = switch (mode) {
            case HYBRID_SENTENCES_MEAN -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.MEAN);
            case HYBRID_SENTENCES_MAX -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.MAX);
            case HYBRID_SENTENCES_BLEND -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.BLEND);
            case HYBRID_SENTENCES_OFF -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.OFF);
            case HYBRID_QUESTIONS_MAX -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.QUESTIONS);
            case HYBRID_SENTENCES_STANDOUT -> QueryWiring.settings(withDepth).withSentenceVectors(SentenceVectors.STANDOUT);
            default -> QueryWiring.settings(withDepth);
        };
        ExecutorService search = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "eval-search");
            t.setDaemon(true);
            return t;
        });
        opened.add(search::shutdownNow);
        QueryEmbedder embedder = new CachingQueryEmbedder(QueryEmbedder.of(runtime.model()), CachingQueryEmbedder.DEFAULT_CAPACITY);
        return new QueryPipeline(StandardStages.of(embedder, SearchIndex.of(runtime.store()), search, settings, scorer,
                runtime.model().tokenizer()::countTokens, null, QueryWiring.patients(config, runtime.store())), settings);
    }

    /** The bi-encoder scorer shared by this run's pipelines. */
    public MemoisedBiEncoderScorer scorer() {
        return scorer;
    }

    public ChartstreamConfig config() {
        return config;
    }

    public PipelineRuntime runtime() {
        return runtime;
    }

    @Override
    public void close() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                progress.accept("while stopping: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        runtime.close();
        try {
            deleteRecursively(dir);
        } catch (IOException e) {
            progress.accept("could not remove " + dir + ": " + e.getMessage());
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
