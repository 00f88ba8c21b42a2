package org.chartstream.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.rerank.ScoreScale;
import org.chartstream.retrieval.rerank.StoredVectorRerankStage;
import org.chartstream.retrieval.rewrite.NoEndpointRewriter;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;
import org.chartstream.retrieval.search.QuestionTermWeights;
import org.chartstream.retrieval.search.SearchIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The query side's extra searches and model calls beyond one search per side: per sentence, and the lexical query's
 * words weighted by the model. (The dense and lexical feedback experiments, off by default, were removed in session
 * 22; their figures are in docs/EVALUATION.md, "Rules measured and not taken".)
 */
class QueryPipelineSearchTest {
    private static final float[] QUESTION = {1, 0, 0};
    /** The embedding of any text starting "Second" (a second sentence). */
    private static final float[] SECOND = {0, 0.6f, 0.8f};
    /** The embeddings of single words (any other text: {@link #QUESTION}, or {@link #SECOND}). */
    private static final Map<String, float[]> WORDS = Map.of(
            "which", new float[] {0, 1, 0}, "note", new float[] {0.6f, 0.8f, 0}, "mentions", new float[] {0.36f, 0.48f, 0.8f},
            "the", new float[] {-1, 0, 0});
    /** The defaults with every word of the lexical query at weight 1. */
    private static final QuerySettings PLAIN_TERMS = QuerySettings.defaults().withTermWeights(QuestionTermWeights.OFF);
    private static final StoredChunk A = ChunkFixture.of("ehr", "notes", "a").vector(new float[] {0, 1, 0}).build();
    private static final StoredChunk B = ChunkFixture.of("ehr", "notes", "b").vector(new float[] {0, 0, 1}).build();
    private static final StoredChunk C = ChunkFixture.of("ehr", "notes", "c").vector(new float[] {0, 1, 0}).build();

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final RecordingStore store = new RecordingStore();
    private final List<List<String>> embedded = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private QueryPipeline pipeline(QuerySettings settings) {
        QueryEmbedder embedder = new QueryEmbedder() {
            @Override
            public String modelId() {
                return ChunkFixture.MODEL;
            }

            @Override
            public float[][] embedQueries(List<String> questions) {
                embedded.add(List.copyOf(questions));
                return questions.stream().map(q -> WORDS.getOrDefault(q, q.startsWith("Second") ? SECOND : QUESTION).clone())
                        .toArray(float[][]::new);
            }
        };
        Reranker unused = StubStages.reranker("every candidate carries a vector");
        Generator generator = StubStages.generator("the gate refuses: no stored vector is near the question");
        return new QueryPipeline(new QueryPipeline.Stages(new NoEndpointRewriter(), embedder,
                new HybridSearcher(store, executor, settings.perSide()), new StoredVectorRerankStage(embedder, unused),
                settings.gate().gateFor(Reranker.BI_ENCODER_COSINE, ScoreScale.BI_ENCODER_COSINE), (gated, n) -> List.of(), generator,
                new CohortStage(null, Set::of, settings.cohortCap()), PatientDirectory.NONE), settings);
    }

    @Test
    void aRankedRunTimesItsStagesUnderTheirNamesInRunOrderAndDedupesAndFusesOnce() {
        QueryPipeline.Result r = pipeline(PLAIN_TERMS).run("which note mentions the plan?", SearchMode.HYBRID, 10, null);

        // the gate refuses (no stored vector is near the question): no context, no generation
        assertThat(r.stageMs().keySet()).containsExactly("scope", "rewrite", "embed", "search", "fuse", "rerank", "gate", "total");
        assertThat(r.answer().outcome()).isEqualTo(Outcome.REFUSED);
        // one chunk per row, fused from the one search per side: b first on both sides
        assertThat(ranked(r).fused()).extracting(c -> c.chunk().row().rowKey()).containsExactly("b", "a", "c");
        assertThat(store.vectorQueries).hasSize(1);
        assertThat(store.lexicalQueries).hasSize(1);
    }

    @Test
    void aQuestionOfSeveralSentencesIsAlsoSearchedSentenceBySentenceAndEachChunkKeepsItsBestCosine() {
        String question = "which note mentions the plan? Second, when was it changed?";
        QueryPipeline.Result r = pipeline(PLAIN_TERMS.withSentenceVectors(SentenceVectors.MAX))
                .run(question, SearchMode.HYBRID, 10, null);

        // the embed stage's one model call: the whole question, then each sentence (the rerank stage embeds the question again)
        assertThat(embedded.get(0)).containsExactly(question, "which note mentions the plan?", "Second, when was it changed?");
        assertThat(store.vectorQueries).hasSize(3);
        assertThat(store.vectorQueries.get(0)).containsExactly(QUESTION);
        // the second sentence's list (c 0.40, a 0.39, b 0.10) merged with the question's (b 0.30, a 0.29, c 0.10) by max
        assertThat(ranked(r).sides().get(0).vector()).extracting(h -> h.chunk().row().rowKey()).containsExactly("c", "a", "b");
        assertThat(ranked(r).sides().get(0).vector()).extracting(SearchHit::score).containsExactly(0.40, 0.39, 0.30);
        assertThat(ranked(r).sides().get(0).vector()).extracting(SearchHit::rank).containsExactly(1, 2, 3);
    }

    @Test
    void withTheMeanRuleAQuestionOfSeveralSentencesIsSearchedOnceWithTheMeanOfItsUnitVectors() {
        String question = "which note mentions the plan? Second, when was it changed?";
        pipeline(PLAIN_TERMS.withSentenceVectors(SentenceVectors.MEAN)).run(question, SearchMode.HYBRID, 10, null);

        assertThat(store.vectorQueries).hasSize(1);
        assertThat(store.vectorQueries.get(0)).containsExactly(SentenceVectors.meanOfUnits(List.of(QUESTION, QUESTION, SECOND)));
    }

    @Test
    void aQuestionOfOneSentenceIsEmbeddedAndSearchedAsWithoutTheSentenceRule() {
        for (SentenceVectors rule : SentenceVectors.values()) {
            store.vectorQueries.clear();
            embedded.clear();
            QueryPipeline.Result r = pipeline(PLAIN_TERMS.withSentenceVectors(rule))
                    .run("Which note mentions the plan for Dr. Smith?", SearchMode.HYBRID, 10, null);
            assertThat(embedded).allSatisfy(call -> assertThat(call).containsExactly("Which note mentions the plan for Dr. Smith?"));
            assertThat(store.vectorQueries).hasSize(1);
            assertThat(store.vectorQueries.get(0)).containsExactly(QUESTION);
            assertThat(ranked(r).sides().get(0).vector()).extracting(h -> h.chunk().row().rowKey()).containsExactly("b", "a", "c");
        }
    }

    @Test
    void byDefaultASentenceThatAsksTwoThingsIsAlsoEmbeddedAndSearchedClauseByClause() {
        String question = "which note mentions the plan and when was it changed?";
        pipeline(PLAIN_TERMS).run(question, SearchMode.HYBRID, 10, null);

        assertThat(embedded.get(0)).containsExactly(question, "which note mentions the plan", "when was it changed?");
        assertThat(store.vectorQueries).hasSize(3);
    }

    @Test
    void aLexicalRunEmbedsNoSentence() {
        pipeline(PLAIN_TERMS.withSentenceVectors(SentenceVectors.MAX))
                .run("which note mentions the plan? Second, when was it changed?", SearchMode.LEXICAL, 10, null);
        assertThat(embedded).allSatisfy(call -> assertThat(call).doesNotContain("Second, when was it changed?"));
        assertThat(store.vectorQueries).isEmpty();
    }

    @Test
    void byDefaultTheLexicalSideSearchesTheQuestionsWordsEachWeightedByItsEmbeddingsCosineWithTheQuestions() {
        String question = "which note mentions the plan?";
        QueryPipeline.Result r = pipeline(QuerySettings.defaults()).run(question, SearchMode.HYBRID, 10, null);

        // the embed stage: the question, then its words in one more call
        assertThat(embedded.get(0)).containsExactly(question);
        assertThat(embedded.get(1)).containsExactly("which", "note", "mentions", "the", "plan");
        assertThat(store.lexicalQueries).isEmpty();
        assertThat(store.weightedQueries).hasSize(1);
        List<WeightedText> query = store.weightedQueries.get(0);
        assertThat(query).extracting(WeightedText::text).containsExactly("which", "note", "mentions", "the", "plan");
        // (cosine / the largest, 1 for "plan")^0.5; "which" is orthogonal to the question and "the" points away: 0.01
        assertThat(query).extracting(WeightedText::weight).satisfiesExactly(
                w -> assertThat(w).isEqualTo(0.01), w -> assertThat(w).isCloseTo(Math.sqrt(0.6), within(1e-6)),
                w -> assertThat(w).isCloseTo(0.6, within(1e-6)), w -> assertThat(w).isEqualTo(0.01), w -> assertThat(w).isEqualTo(1.0));
        // the weighted search's list is the lexical side that was fused
        assertThat(ranked(r).sides().get(0).lexical()).extracting(h -> h.chunk().row().rowKey()).containsExactly("a", "c", "b");
    }

    @Test
    void withTermWeightsOffOrOnAStoreThatCannotWeighTermsTheLexicalSideSearchesTheQuestionAsAsked() {
        pipeline(PLAIN_TERMS).run("which note mentions the plan?", SearchMode.HYBRID, 10, null);
        store.weighsTerms = false;
        QueryPipeline.Result r = pipeline(QuerySettings.defaults()).run("which note mentions the plan?", SearchMode.HYBRID, 10, null);

        assertThat(store.lexicalQueries).containsExactly("which note mentions the plan?", "which note mentions the plan?");
        assertThat(store.weightedQueries).isEmpty();
        assertThat(embedded).allSatisfy(call -> assertThat(call).doesNotContain("plan"));
        assertThat(ranked(r).sides().get(0).lexical()).extracting(h -> h.chunk().row().rowKey()).containsExactly("b", "c", "a");
    }

    @Test
    void aLexicalRunEmbedsTheQuestionForItsWordsWeightsAndSearchesNoVector() {
        pipeline(QuerySettings.defaults()).run("which note mentions the plan?", SearchMode.LEXICAL, 10, null);

        assertThat(embedded.get(0)).containsExactly("which note mentions the plan?");
        assertThat(embedded.get(1)).containsExactly("which", "note", "mentions", "the", "plan");
        assertThat(store.weightedQueries).hasSize(1);
        assertThat(store.vectorQueries).isEmpty();
    }

    @Test
    void aVectorRunWeighsNoWord() {
        pipeline(QuerySettings.defaults()).run("which note mentions the plan?", SearchMode.VECTOR, 10, null);

        assertThat(embedded).allSatisfy(call -> assertThat(call).doesNotContain("plan"));
        assertThat(store.weightedQueries).isEmpty();
        assertThat(store.lexicalQueries).isEmpty();
    }


    private static RetrievalTrace.Ranked ranked(QueryPipeline.Result r) {
        return (RetrievalTrace.Ranked) r.trace();
    }

    /** Answers the question's vector with b, a, c and any other vector with c, a, b; BM25 puts b far ahead, a weighted query a. */
    private static final class RecordingStore implements SearchIndex {
        final List<float[]> vectorQueries = new CopyOnWriteArrayList<>();
        final List<String> lexicalQueries = new CopyOnWriteArrayList<>();
        final List<List<WeightedText>> weightedQueries = new CopyOnWriteArrayList<>();
        volatile boolean weighsTerms = true;

        @Override
        public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
            vectorQueries.add(query.clone());
            return java.util.Arrays.equals(query, QUESTION)
                    ? List.of(new SearchHit(B, 0.30, 1), new SearchHit(A, 0.29, 2), new SearchHit(C, 0.10, 3))
                    : List.of(new SearchHit(C, 0.40, 1), new SearchHit(A, 0.39, 2), new SearchHit(B, 0.10, 3));
        }

        @Override
        public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
            lexicalQueries.add(query);
            return List.of(new SearchHit(B, 9.0, 1), new SearchHit(C, 1.0, 2), new SearchHit(A, 0.5, 3));
        }

        @Override
        public List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
            weightedQueries.add(query);
            return List.of(new SearchHit(A, 9.0, 1), new SearchHit(C, 1.0, 2), new SearchHit(B, 0.5, 3));
        }

        @Override
        public boolean weighsLexicalTerms() {
            return weighsTerms;
        }

        @Override
        public List<StoredChunk> rowChunks(RowRef row) {
            return Stream.of(A, B, C).filter(c -> c.row().equals(row)).toList();
        }

        @Override
        public Set<TableRef> indexedTables() {
            return Set.of(new TableRef("ehr", "notes"));
        }

        @Override
        public Optional<TermIndex> termIndex() {
            return Optional.empty();
        }
    }
}
