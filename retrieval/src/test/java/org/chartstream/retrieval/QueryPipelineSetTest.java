package org.chartstream.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.plan.Hospital;
import org.chartstream.retrieval.plan.RowSetIndex;
import org.chartstream.retrieval.plan.WholeSets;
import org.chartstream.retrieval.rerank.ScoreScale;
import org.chartstream.retrieval.rerank.StoredVectorRerankStage;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.NoEndpointRewriter;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The standard pipeline over an index that answers row sets and sources with bindings: a question over a whole set is
 * answered exactly by the set step (and nothing else runs), a follow-up about "they" after a whole-set answer is read
 * over exactly that set, and any other question still takes the ranked path.
 */
class QueryPipelineSetTest {
    private static final List<String> NUMBERS = List.of("10000001", "10000002", "10000003", "10000004", "10000005", "10000006");

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final RowSetIndex index = Hospital.rows();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private QueryPipeline pipeline(boolean withBindings) {
        QuerySettings settings = QuerySettings.defaults();
        QueryEmbedder embedder = StubStages.constant(new float[] {1, 0, 0});
        Reranker reranker = StubStages.reranker("nothing is found to rerank");
        Generator generator = StubStages.generator("the gate refuses: nothing was found");
        PatientDirectory patients = text -> NUMBERS.stream().filter(text::contains)
                .map(n -> new PatientCandidate(n, null, n, null)).toList();
        WholeSets sets = withBindings ? WholeSets.of(index, Map.of(RowSetIndex.SOURCE, Hospital.binding()), 500, 600) : null;
        return new QueryPipeline(new QueryPipeline.Stages(new NoEndpointRewriter(), embedder,
                new HybridSearcher(index, executor, settings.perSide()), new StoredVectorRerankStage(embedder, reranker),
                settings.gate().gateFor(Reranker.BI_ENCODER_COSINE, ScoreScale.BI_ENCODER_COSINE), (gated, n) -> List.of(),
                generator, new CohortStage(null, index::indexedTables, settings.cohortCap(), sets), patients), settings);
    }

    private QueryPipeline.Result ask(QueryPipeline pipeline, String question, ConversationHistory history) {
        return pipeline.run(question, SearchMode.HYBRID, 5, RetrievalFilter.NONE, history, QueryPipeline.Listener.NONE);
    }

    @Test
    void aWholeSetQuestionIsAnsweredExactlyWithItsStructuredResultAndCitedRows() {
        QueryPipeline.Result result = ask(pipeline(true), "Which patients are on a statin?", ConversationHistory.EMPTY);
        Answer answer = result.answer();
        assertThat(answer.outcome()).isEqualTo(Outcome.ANSWER);
        assertThat(answer.completeness().orElseThrow().kind()).as("a class's members named, not every brand")
                .isEqualTo(Completeness.Kind.PARTIAL);
        assertThat(answer.set().orElseThrow().complete()).isTrue();
        assertThat(answer.set().orElseThrow().patientsListed()).containsExactly("10000001", "10000003");
        assertThat(answer.generator()).isEqualTo(RetrievalTrace.Cohort.SET_PLAN);
        assertThat(answer.passages()).extracting(p -> p.chunk().row().id())
                .containsExactly("hosp:prescriptions:r2", "hosp:prescriptions:r6");
        assertThat(answer.text()).contains("[1]", "[2]", "Atorvastatin", "Simvastatin").doesNotContain("Nystatin");
        assertThat(result.trace()).isInstanceOf(RetrievalTrace.Cohort.class);
        assertThat(result.stageMs()).containsKey("set").doesNotContainKey("search");
    }

    @Test
    void aPatientNamedByNumberScopesTheSetAndAnUnknownAdmissionIsRefused() {
        Answer meds = ask(pipeline(true), "Which medications is patient 10000001 currently taking?", ConversationHistory.EMPTY).answer();
        assertThat(meds.set().orElseThrow().rowIds()).containsExactly("hosp:prescriptions:r2", "hosp:prescriptions:r3");
        QueryPipeline.Result refused = ask(pipeline(true), "Which diagnoses were coded on admission 12345678?", ConversationHistory.EMPTY);
        assertThat(refused.answer().outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(refused.answer().text()).contains("admission 12345678");
        assertThat(refused.trace().gateDescription()).as("logged: no word of the question").doesNotContain("12345678");
    }

    @Test
    void aFollowUpAboutTheyAfterAWholeSetIsReadOverExactlyThatSet() {
        ConversationHistory afterSet = new ConversationHistory("", List.of(new RecentTurn("Which patients are on a statin?",
                "…", List.of("10000001", "10000003"), true)));
        Answer answer = ask(pipeline(true), "What were they diagnosed with?", afterSet).answer();
        assertThat(answer.outcome()).isEqualTo(Outcome.ANSWER);
        assertThat(answer.set().orElseThrow().patientsListed()).containsExactly("10000001", "10000003");
        assertThat(answer.set().orElseThrow().values()).extracting(SetResult.Value::value).containsExactly(
                "Atrial fibrillation", "Hypertensive heart disease with heart failure", "Unspecified essential hypertension");
        ConversationHistory notWhole = new ConversationHistory("", List.of(new RecentTurn("q", "…", List.of("10000001", "10000003"))));
        assertThat(ask(pipeline(true), "What were they diagnosed with?", notWhole).answer().outcome())
                .as("patients only cited are not a set to read").isEqualTo(Outcome.CLARIFY);
        assertThat(ask(pipeline(true), "Are they happy?", afterSet).answer().outcome())
                .as("a follow-up the plan cannot read asks which patient, as before").isEqualTo(Outcome.CLARIFY);
        assertThat(ask(pipeline(false), "What were they diagnosed with?", afterSet).answer().outcome()).isEqualTo(Outcome.CLARIFY);
    }

    @Test
    void anyOtherQuestionAndAnyQuestionWithoutBindingsTakesTheRankedPath() {
        assertThat(ask(pipeline(true), "What is the weather like tomorrow?", ConversationHistory.EMPTY).trace())
                .isInstanceOf(RetrievalTrace.Ranked.class);
        assertThat(ask(pipeline(false), "Which patients are on a statin?", ConversationHistory.EMPTY).trace())
                .isInstanceOf(RetrievalTrace.Ranked.class);
    }
}
