package org.chartstream.retrieval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.context.ContextBuilder;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectorSearch;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.gate.ScopedEvidenceGate;
import org.chartstream.retrieval.rerank.RerankStage;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.QueryRewriter;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;
import org.chartstream.retrieval.steps.CohortStep;
import org.chartstream.retrieval.steps.ContextStep;
import org.chartstream.retrieval.steps.EmbedStep;
import org.chartstream.retrieval.steps.FuseStep;
import org.chartstream.retrieval.steps.GateStep;
import org.chartstream.retrieval.steps.GenerateStep;
import org.chartstream.retrieval.steps.QueryRun;
import org.chartstream.retrieval.steps.QueryStep;
import org.chartstream.retrieval.steps.RerankStep;
import org.chartstream.retrieval.steps.RewriteStep;
import org.chartstream.retrieval.steps.RunListener;
import org.chartstream.retrieval.steps.ScopeStep;
import org.chartstream.retrieval.steps.SearchStep;
import org.chartstream.retrieval.steps.SetStep;

/**
 * The retrieval stages for one question, free of Kafka (docs/ARCHITECTURE.md, "Module boundary"), as an ordered list of
 * {@link QueryStep}s over one {@link QueryRun}: patient scope (the patient the question names or a follow-up inherits,
 * or a clarification asking which) → a question over a whole set (which patients, how many, a field's values, the most
 * frequent, the latest, a full list, a follow-up over a previous set) is planned and answered on the index's exact row
 * sets, and nothing else runs → a cohort question (every patient or record holding one exact code, drug or
 * condition) is answered by exact term lookup and nothing else runs; any other question goes rewrite with memory and
 * expansion → one embedding batch → vector and lexical search per variant, concurrently, with exact terms on the
 * lexical side → row dedupe (one chunk per row) and fusion → adaptive rerank prefix → reranker → tail trim, anchored
 * passages and gate (pointed or broad) → context budget with parent-row expansion → grounded generation (or the
 * extractive answer) with checked citations. One {@link Candidate} per row travels from the dedupe to the context.
 */
public final class QueryPipeline {
    private final List<QueryStep> steps;
    private final String embeddingModel;
    private final String generatorName;
    private final List<RunObserver> observers = new CopyOnWriteArrayList<>();

    /**
     * One implementation per stage kind (each a small interface with a default implementation).
     *
     * @param patients the patients questions can name, for the patient scope ({@link PatientDirectory#NONE}: none)
     */
    public record Stages(QueryRewriter rewriter, QueryEmbedder embedder, HybridSearcher searcher, RerankStage reranker,
                         ScopedEvidenceGate gate, ContextBuilder context, Generator generator, CohortStage cohort,
                         PatientDirectory patients) {
    }

    /** Told as the run progresses, so replies can stream: citations first, then answer tokens. */
    public interface Listener extends RunListener {
        Listener NONE = new Listener() {
        };
    }

    /**
     * Everything one run decided: the reply's part, how its evidence was found (for the audit and the evaluation),
     * which patient it was restricted to and why, and each stage's time.
     */
    public record Result(Answer answer, RetrievalTrace trace, PatientScope scope, Map<String, Long> stageMs) {
        public Result {
            Objects.requireNonNull(answer, "answer");
            Objects.requireNonNull(trace, "trace");
            Objects.requireNonNull(scope, "scope");
            stageMs = Collections.unmodifiableMap(new LinkedHashMap<>(stageMs));
        }
    }

    /** Told of every finished run (outcome, stage timings), e.g. by metrics; must be quick. */
    public interface RunObserver {
        void finished(Result result);
    }

    /** The request's deadline passed while it was being answered: no answer is wanted any more. */
    public static final class DeadlinePassedException extends RuntimeException {
        DeadlinePassedException(String stage) {
            super("deadline passed before stage " + stage, null, false, false);
        }
    }

    /** The standard steps over the given stage implementations. */
    public QueryPipeline(Stages stages, QuerySettings settings) {
        this(standardSteps(stages, settings), stages.embedder().modelId(), stages.generator().name());
    }

    /**
     * @param steps          the steps in run order
     * @param embeddingModel the query embedder's model id
     * @param generatorName  the generator in use, named by runs that generated nothing
     */
    public QueryPipeline(List<QueryStep> steps, String embeddingModel, String generatorName) {
        this.steps = List.copyOf(steps);
        this.embeddingModel = embeddingModel;
        this.generatorName = generatorName;
    }

    private static List<QueryStep> standardSteps(Stages stages, QuerySettings settings) {
        HybridSearcher searcher = stages.searcher();
        SentenceVectorSearch sentences = new SentenceVectorSearch(settings.sentenceVectors(), stages.embedder(),
                searcher::vectorSearches, searcher.perSide());
        return List.of(new ScopeStep(stages.patients()),
                new SetStep(stages.cohort().wholeSets()),
                new CohortStep(stages.cohort(), new CohortStep.Settings(settings.maxPassageChars())),
                new RewriteStep(stages.rewriter()),
                new EmbedStep(stages.embedder(), sentences, new EmbedStep.Settings(settings.termWeights(), searcher.weighsLexicalTerms())),
                new SearchStep(searcher, sentences),
                new FuseStep(settings.fusion()),
                new RerankStep(stages.reranker()),
                new GateStep(stages.gate()),
                new ContextStep(stages.context()),
                new GenerateStep(stages.generator()));
    }

    public void addObserver(RunObserver observer) {
        observers.add(observer);
    }

    public String embeddingModel() {
        return embeddingModel;
    }

    public String generatorName() {
        return generatorName;
    }

    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter) {
        return run(question, mode, topK, filter, ConversationHistory.EMPTY, Listener.NONE);
    }

    /**
     * @param history the conversation so far (continuity only, never cited); {@link ConversationHistory#EMPTY} for a
     *                first turn
     */
    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter, ConversationHistory history,
                      Listener listener) {
        return run(question, mode, topK, filter, history, listener, Long.MAX_VALUE);
    }

    /**
     * @param deadlineMs epoch millis after which no answer is wanted: checked before every step, so the work stops
     *                   with a {@link DeadlinePassedException} instead of producing a late answer
     */
    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter, ConversationHistory history,
                      Listener listener, long deadlineMs) {
        QueryRun run = new QueryRun(question, mode, topK, filter, history, listener);
        Map<String, Long> stageMs = new LinkedHashMap<>();
        long start = System.nanoTime();
        long since = start;
        for (QueryStep step : steps) {
            if (System.currentTimeMillis() > deadlineMs) {
                throw new DeadlinePassedException(step.name());
            }
            QueryStep.Next next = step.run(run);
            if (next != QueryStep.Next.CONTINUE_UNTIMED) {
                long now = System.nanoTime();
                stageMs.put(step.name(), (now - since) / 1_000_000);
                since = now;
            }
            if (next == QueryStep.Next.STOP) {
                break;
            }
        }
        stageMs.put("total", (System.nanoTime() - start) / 1_000_000);
        return finished(RunResults.of(run, stageMs, generatorName));
    }

    private Result finished(Result result) {
        for (RunObserver observer : observers) {
            try {
                observer.finished(result);
            } catch (RuntimeException e) {
                // an observer (metrics) must never cost the user the answer
            }
        }
        return result;
    }
}
