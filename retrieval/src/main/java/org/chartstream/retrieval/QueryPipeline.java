package org.chartstream.retrieval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.cohort.Cohort;
import org.chartstream.retrieval.cohort.CohortAnswer;
import org.chartstream.retrieval.cohort.CohortPlan;
import org.chartstream.retrieval.cohort.CohortQuestion;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.context.ContextBuilder;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.dedupe.RowDedupe;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectorSearch;
import org.chartstream.retrieval.fusion.Fusion;
import org.chartstream.retrieval.gate.AnchoredPassages;
import org.chartstream.retrieval.gate.GateDecision;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.gate.ScopedEvidenceGate;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.gate.TailTrim;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.chartstream.retrieval.rerank.RerankStage;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.ExactTerms;
import org.chartstream.retrieval.rewrite.QueryRewriter;
import org.chartstream.retrieval.rewrite.RewriteResult;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.scope.ScopeDecision;
import org.chartstream.retrieval.scope.ScopeResolver;
import org.chartstream.retrieval.search.HybridSearcher;
import org.chartstream.retrieval.search.QuestionTermWeights;
import org.chartstream.retrieval.search.SideResults;

/**
 * The retrieval stages for one question, free of Kafka (DESIGN.md §5): patient scope (the patient the question
 * names or a follow-up inherits, or a clarification asking which) → a cohort question (every patient or record
 * holding one exact code, drug or condition) is answered by exact term lookup and nothing else runs
 * ({@link CohortStage}); any other question goes rewrite with memory and expansion → one embedding batch → vector and
 * lexical search per variant, concurrently, with exact terms on the lexical side → row dedupe (one chunk per row) →
 * fusion (normalised scores by default, or RRF) → adaptive rerank prefix → reranker → tail trim → only passages that
 * mention the question's anchors ({@link AnchoredPassages}) → gate (pointed or broad) → context budget with
 * parent-row expansion → grounded generation (or the
 * extractive answer) with checked citations. One {@link Candidate} per row travels from the dedupe to the context.
 */
public final class QueryPipeline {
    /** The gate "scorer" of a run the cohort step decided (exact term lookup; no passage was scored). */
    public static final String EXACT_TERM_SCORER = "exact-term";

    private final Stages stages;
    private final QuerySettings settings;
    private final SentenceVectorSearch sentenceSearch;
    private final List<RunObserver> observers = new CopyOnWriteArrayList<>();

    /**
     * One implementation per stage (each a small interface with a default implementation).
     *
     * @param patients the patients questions can name, for the patient scope ({@link PatientDirectory#NONE}: none)
     */
    public record Stages(QueryRewriter rewriter, QueryEmbedder embedder, HybridSearcher searcher, RerankStage reranker,
                         ScopedEvidenceGate gate, ContextBuilder context, Generator generator, CohortStage cohort,
                         PatientDirectory patients) {
    }

    /** Told as the run progresses, so replies can stream: citations first, then answer tokens. */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        default void onCitations(List<Passage> passages) {
        }

        default void onToken(String token) {
        }
    }

    /**
     * Everything one run decided, for the reply and for the audit record.
     *
     * @param fused    every fused candidate, best first, with its fused score and rank
     * @param reranked the reranked prefix in the rerank stage's order, each with its rerank score
     * @param completeness on an answer, how complete its list of records is; {@code null} otherwise
     * @param scope    which patient the run was restricted to and why
     */
    public record Result(Outcome outcome, String answer, boolean extractive, List<Passage> passages,
                         List<String> variants, String rewrite, List<SideResults> sides, List<Candidate> fused,
                         List<Candidate> reranked, String reranker, String rerankPrefix, GateDecision gate,
                         String gateDescription, String generator, List<Integer> flaggedCitations, Map<String, Long> stageMs,
                         Completeness completeness, PatientScope scope) {
    }

    /** Told of every finished run (outcome, stage timings), e.g. by metrics; must be quick. */
    public interface RunObserver {
        void finished(Result result);
    }

    public QueryPipeline(Stages stages, QuerySettings settings) {
        this.stages = stages;
        this.settings = settings;
        this.sentenceSearch = new SentenceVectorSearch(settings.sentenceVectors(), stages.embedder(),
                stages.searcher()::vectorSearches, stages.searcher().perSide());
    }

    public void addObserver(RunObserver observer) {
        observers.add(observer);
    }

    public String embeddingModel() {
        return stages.embedder().modelId();
    }

    /** The tables the index holds, which a request's filter may name. */
    public java.util.Set<TableRef> indexedTables() {
        return stages.searcher().indexedTables();
    }

    public String generatorName() {
        return stages.generator().name();
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
     * Each variant's lexical query with its words weighted by the embedding model ({@link QuestionTermWeights}); null
     * when the setting is off, no lexical search runs or the store cannot weigh terms. A variant the rule leaves as
     * asked (no word, too many) is its plain lexical query at weight 1, which scores as the plain search does.
     */
    private List<List<WeightedText>> termWeighted(SearchMode mode, List<String> variants, List<float[]> vectors,
                                                  List<String> lexicalQueries) {
        if (!settings.termWeights().on() || mode == SearchMode.VECTOR || !stages.searcher().weighsLexicalTerms()) {
            return null;
        }
        List<float[]> questionVectors = vectors != null ? vectors : List.of(stages.embedder().embedQueries(variants));
        List<Optional<List<WeightedText>>> weighted = QuestionTermWeights.queries(variants, questionVectors, stages.embedder());
        List<List<WeightedText>> out = new ArrayList<>(variants.size());
        for (int i = 0; i < variants.size(); i++) {
            out.add(weighted.get(i).orElse(List.of(new WeightedText(lexicalQueries.get(i), 1.0))));
        }
        return out;
    }

    /** The request's deadline passed while it was being answered: no answer is wanted any more. */
    public static final class DeadlinePassedException extends RuntimeException {
        DeadlinePassedException(String stage) {
            super("deadline passed before stage " + stage, null, false, false);
        }
    }

    /**
     * @param deadlineMs epoch millis after which no answer is wanted: checked before every stage, so the work stops
     *                   with a {@link DeadlinePassedException} instead of producing a late answer
     */
    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter, ConversationHistory history,
                      Listener listener, long deadlineMs) {
        Map<String, Long> stageMs = new LinkedHashMap<>();
        long start = System.nanoTime();
        long t = start;

        before("scope", deadlineMs);
        ScopeDecision scope = new ScopeResolver(stages.patients()).resolve(question, filter, history);
        t = lap(stageMs, "scope", t);
        if (scope.clarify()) {
            stageMs.put("total", (System.nanoTime() - start) / 1_000_000);
            return finished(clarification(question, scope, stageMs));
        }
        filter = scope.filter();

        before("cohort", deadlineMs);
        CohortPlan cohort = stages.cohort().plan(question, filter);
        if (!(cohort instanceof CohortPlan.Ranked)) {
            lap(stageMs, "cohort", t);
            return finished(cohortResult(cohort, scope.scope(), listener, stageMs, start));
        }

        before("rewrite", deadlineMs);
        RewriteResult rewrite = stages.rewriter().rewrite(question, history == null ? ConversationHistory.EMPTY : history);
        List<String> variants = rewrite.queries();
        t = lap(stageMs, "rewrite", t);

        before("embed", deadlineMs);
        SentenceVectorSearch.Embedded embedded = mode == SearchMode.LEXICAL ? null : sentenceSearch.embed(variants);
        List<float[]> vectors = embedded == null ? null : embedded.variants();
        List<String> lexicalQueries = variants.stream().map(ExactTerms::lexicalQuery).toList();
        List<List<WeightedText>> weightedLexical = termWeighted(mode, variants, vectors, lexicalQueries);
        t = lap(stageMs, "embed", t);

        before("search", deadlineMs);
        List<SideResults> sides = weightedLexical == null ? stages.searcher().searchAll(mode, vectors, lexicalQueries, filter)
                : stages.searcher().searchAllWeighted(mode, vectors, weightedLexical, filter);
        if (embedded != null) {
            sides = withFirst(sides, sentenceSearch.vectorList(sides.get(0).vector(), embedded, filter), sides.get(0).lexical());
        }
        t = lap(stageMs, "search", t);

        RowDedupe.PerRow perRow = RowDedupe.perRow(sides);
        List<Candidate> fused = fusion(rewrite.primary()).fuse(perRow.vector(), perRow.lexical());
        t = lap(stageMs, "fuse", t);

        if (mode == SearchMode.HYBRID && settings.denseFeedback().on()) {
            Optional<float[]> moved = settings.denseFeedback().query(vectors.get(0), fused);
            if (moved.isPresent()) {
                before("feedback", deadlineMs);
                SideResults again = stages.searcher().search(SearchMode.VECTOR, moved.get(), lexicalQueries.get(0), filter);
                sides = withFirst(sides, again.vector(), sides.get(0).lexical());
                perRow = RowDedupe.perRow(sides);
                fused = fusion(rewrite.primary()).fuse(perRow.vector(), perRow.lexical());
            }
            t = lap(stageMs, "feedback", t);
        }

        if (mode == SearchMode.HYBRID && settings.lexicalFeedback().on() && stages.searcher().weighsLexicalTerms()) {
            Optional<List<WeightedText>> expanded =
                    settings.lexicalFeedback().query(lexicalQueries.get(0), fused, stages.searcher()::rowText);
            if (expanded.isPresent()) {
                before("lexical-feedback", deadlineMs);
                List<SearchHit> again = stages.searcher().weightedLexical(expanded.get(), filter);
                sides = withFirst(sides, sides.get(0).vector(), again);
                perRow = RowDedupe.perRow(sides);
                fused = fusion(rewrite.primary()).fuse(perRow.vector(), perRow.lexical());
            }
            t = lap(stageMs, "lexical-feedback", t);
        }

        before("rerank", deadlineMs);
        RerankOutcome reranked = stages.reranker().rerank(rewrite.primary(), fused, topK);
        t = lap(stageMs, "rerank", t);

        List<Candidate> top = reranked.ranked().subList(0, Math.min(topK, reranked.ranked().size()));
        List<Candidate> kept = AnchoredPassages.mentioning(question, TailTrim.trim(top, stages.gate().threshold()));
        ScopedGateDecision gate = stages.gate().decide(question, kept, top);
        t = lap(stageMs, "gate", t);

        List<Passage> passages = List.of();
        GenerationResult generation = null;
        if (gate.answer()) {
            before("context", deadlineMs);
            List<ContextPassage> context = stages.context().build(kept, topK);
            passages = context.stream().map(p -> new Passage(p.index(), p.anchor(), p.score(), p.text())).toList();
            t = lap(stageMs, "context", t);
            before("generate", deadlineMs);
            listener.onCitations(passages);
            generation = stages.generator().generate(rewrite.primary(), context, listener::onToken);
            lap(stageMs, "generate", t);
        }
        stageMs.put("total", (System.nanoTime() - start) / 1_000_000);

        Outcome outcome;
        String answer;
        boolean extractive = false;
        if (generation == null) {
            outcome = Outcome.REFUSED;
            answer = "No answer: the indexed records do not support an answer to this question (" + gate.reason() + ").";
        } else {
            switch (generation.outcome()) {
                case ANSWERED -> outcome = Outcome.ANSWER;
                case EXTRACTIVE -> {
                    outcome = Outcome.ANSWER;
                    extractive = true;
                }
                case REFUSED -> outcome = Outcome.REFUSED;
                default -> outcome = Outcome.UNAVAILABLE;
            }
            answer = generation.answer();
            if (outcome == Outcome.ANSWER) {
                // said in the final reply's text, after any streamed tokens
                answer += "\n\n(" + rankedCompleteness(question).reason() + ".)";
            }
            if (outcome == Outcome.UNAVAILABLE) {
                answer = "The local generation model is unavailable (" + generation.detail() + "); no answer was generated.";
            }
        }
        Result result = new Result(outcome, answer, extractive, outcome == Outcome.REFUSED ? List.of() : passages, variants,
                rewrite.reason(), sides, fused, reranked.ranked(), reranked.reranker(), reranked.prefix().reason(),
                gate.toGateDecision(), gate.describe(), generation == null ? stages.generator().name() : generation.generator(),
                generation == null ? List.of() : generation.citations().outOfRange(), stageMs,
                outcome == Outcome.ANSWER ? rankedCompleteness(question) : null, scope.scope());
        return finished(result);
    }

    /** The sides with the first variant's lists replaced. */
    private static List<SideResults> withFirst(List<SideResults> sides, List<SearchHit> vector, List<SearchHit> lexical) {
        List<SideResults> out = new ArrayList<>(sides);
        out.set(0, new SideResults(vector, lexical));
        return List.copyOf(out);
    }

    /** The run's reply when the question does not say which patient: nothing searched, nothing cited. */
    private Result clarification(String question, ScopeDecision scope, Map<String, Long> stageMs) {
        return new Result(Outcome.CLARIFY, scope.clarification(), false, List.of(), List.of(question),
                "not run: the question does not say which patient", List.of(), List.of(), List.of(), null, null, null,
                "not run: clarification asked (" + scope.scope().describe() + ")", stages.generator().name(), List.of(),
                stageMs, null, scope.scope());
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


    /**
     * A ranked answer lists the most relevant records; when the question asked for every matching record but named
     * no exact anchor (no code, drug or condition word, nor a patient), it is partial for that reason.
     */
    private static Completeness rankedCompleteness(String question) {
        return CohortQuestion.asksForAll(question) && QuestionAnchors.of(question).isEmpty()
                ? new Completeness(Completeness.Kind.PARTIAL, "the question asks for every matching record but names no"
                        + " exact code, drug or condition the index holds: these are the most relevant records by similarity,"
                        + " not necessarily all", null)
                : Completeness.MOST_RELEVANT;
    }

    /** The answer (or refusal) of a question the cohort step decided: no ranked search ran. */
    private Result cohortResult(CohortPlan plan, PatientScope scope, Listener listener, Map<String, Long> stageMs,
                                long start) {
        stageMs.put("total", (System.nanoTime() - start) / 1_000_000);
        String name = "cohort (exact term lookup)";
        if (plan instanceof CohortPlan.Refused refused) {
            GateDecision gate = new GateDecision(false, EXACT_TERM_SCORER, 0, 1, refused.reason());
            return new Result(Outcome.REFUSED, "No answer: the indexed records do not support an answer to this question ("
                    + refused.reason() + ").", false, List.of(), List.of(), "cohort question: no rewrite", List.of(), List.of(),
                    List.of(), name, "none", gate, gate.describe(), name, List.of(), stageMs, null, scope);
        }
        Cohort cohort = ((CohortPlan.Listed) plan).cohort();
        CohortAnswer answer = CohortAnswer.of(cohort, settings.maxPassageChars());
        List<Candidate> rows = new java.util.ArrayList<>(answer.passages().size());
        for (Passage p : answer.passages()) {
            rows.add(Candidate.lexicalHit(p.chunk(), 1.0, p.index()).withFused(1.0, p.index()).withRerankScore(1.0));
        }
        listener.onCitations(answer.passages());
        GateDecision gate = new GateDecision(true, EXACT_TERM_SCORER, 1, 1, "every listed row holds the question's anchor");
        return new Result(Outcome.ANSWER, answer.text(), true, answer.passages(), List.of(), "cohort question: no rewrite",
                List.of(), rows, rows, name, "none", gate, gate.describe(), name, List.of(), stageMs, cohort.completeness(),
                scope);
    }

    private Fusion fusion(String question) {
        return switch (settings.fusion()) {
            case ADAPTIVE -> Fusion.adaptive(question);
            case RRF -> Fusion.reciprocalRank(settings.rrfK());
            case SCORE -> Fusion.normalisedScore(settings.vectorWeight());
        };
    }

    private static void before(String stage, long deadlineMs) {
        if (System.currentTimeMillis() > deadlineMs) {
            throw new DeadlinePassedException(stage);
        }
    }

    private static long lap(Map<String, Long> stageMs, String stage, long since) {
        long now = System.nanoTime();
        stageMs.put(stage, (now - since) / 1_000_000);
        return now;
    }
}
