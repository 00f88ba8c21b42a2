package org.chartstream.retrieval.steps;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.cohort.CohortAnswer;
import org.chartstream.retrieval.cohort.CohortPlan;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.embed.SentenceVectorSearch;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.plan.SetAnswer;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RewriteResult;
import org.chartstream.retrieval.scope.ScopeDecision;
import org.chartstream.retrieval.search.SideResults;

/**
 * One request's state as it goes through the steps: the request, then what each step decided, in step order. A step
 * sets its own part once; a part a step did not reach stays null (the pipeline's result never passes it on as such).
 */
public final class QueryRun {
    private final String question;
    private final SearchMode mode;
    private final int topK;
    private final ConversationHistory history;
    private final RunListener listener;
    private RetrievalFilter filter;
    private ScopeDecision scope;
    private SetAnswer set;
    private CohortPlan cohort;
    private CohortAnswer cohortAnswer;
    private RewriteResult rewrite;
    private SentenceVectorSearch.Embedded embedded;
    private List<String> lexicalQueries;
    private List<List<WeightedText>> weightedLexical;
    private List<SideResults> sides;
    private List<Candidate> fused;
    private RerankOutcome reranked;
    private List<Candidate> kept;
    private ScopedGateDecision gate;
    private List<ContextPassage> context;
    private List<Passage> passages = List.of();
    private GenerationResult generation;

    /**
     * @param filter  the request's own filter, or null for none
     * @param history the conversation so far (continuity only, never cited), or null for a first turn
     */
    public QueryRun(String question, SearchMode mode, int topK, RetrievalFilter filter, ConversationHistory history,
                    RunListener listener) {
        this.question = Objects.requireNonNull(question, "question");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.topK = topK;
        this.filter = filter;
        this.history = history == null ? ConversationHistory.EMPTY : history;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    public String question() {
        return question;
    }

    public SearchMode mode() {
        return mode;
    }

    public int topK() {
        return topK;
    }

    public ConversationHistory history() {
        return history;
    }

    public RunListener listener() {
        return listener;
    }

    /** The request's filter, narrowed to the patient once the scope step ran. */
    public RetrievalFilter filter() {
        return filter;
    }

    public ScopeDecision scope() {
        return scope;
    }

    void scope(ScopeDecision decided) {
        this.scope = decided;
        this.filter = decided.filter();
    }

    /** The whole-set answer (or refusal) when the set step decided the run; null otherwise. */
    public SetAnswer set() {
        return set;
    }

    void set(SetAnswer answer) {
        this.set = answer;
    }

    public CohortPlan cohort() {
        return cohort;
    }

    /** The cohort answer of a listed cohort; null otherwise. */
    public CohortAnswer cohortAnswer() {
        return cohortAnswer;
    }

    void cohort(CohortPlan plan, CohortAnswer answer) {
        this.cohort = plan;
        this.cohortAnswer = answer;
    }

    public RewriteResult rewrite() {
        return rewrite;
    }

    void rewrite(RewriteResult result) {
        this.rewrite = result;
    }

    /** The query variants, the primary first. */
    public List<String> variants() {
        return rewrite.queries();
    }

    /** The variants' (and sentences') embeddings; null in lexical mode. */
    public SentenceVectorSearch.Embedded embedded() {
        return embedded;
    }

    /** Each variant's lexical query. */
    public List<String> lexicalQueries() {
        return lexicalQueries;
    }

    /** Each variant's lexical query with its words weighted; null when the words are not weighted. */
    public List<List<WeightedText>> weightedLexical() {
        return weightedLexical;
    }

    void embedded(SentenceVectorSearch.Embedded vectors, List<String> lexical, List<List<WeightedText>> weighted) {
        this.embedded = vectors;
        this.lexicalQueries = lexical;
        this.weightedLexical = weighted;
    }

    public List<SideResults> sides() {
        return sides;
    }

    void sides(List<SideResults> found) {
        this.sides = List.copyOf(found);
    }

    public List<Candidate> fused() {
        return fused;
    }

    void fused(List<Candidate> candidates) {
        this.fused = candidates;
    }

    public RerankOutcome reranked() {
        return reranked;
    }

    void reranked(RerankOutcome outcome) {
        this.reranked = outcome;
    }

    /** The reranked top k left after the tail trim and the anchor cut. */
    public List<Candidate> kept() {
        return kept;
    }

    public ScopedGateDecision gate() {
        return gate;
    }

    void gate(List<Candidate> left, ScopedGateDecision decision) {
        this.kept = left;
        this.gate = decision;
    }

    public List<ContextPassage> context() {
        return context;
    }

    /** The passages the answer may cite; empty until the context step ran. */
    public List<Passage> passages() {
        return passages;
    }

    void context(List<ContextPassage> built, List<Passage> cited) {
        this.context = built;
        this.passages = cited;
    }

    public GenerationResult generation() {
        return generation;
    }

    void generation(GenerationResult result) {
        this.generation = result;
    }
}
