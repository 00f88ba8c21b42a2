package org.chartstream.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.junit.jupiter.api.Test;

/**
 * The stage on its own: the embedder maps a text starting "Second" to {@link #SECOND} and any other to
 * {@link #WHOLE}; the searches port answers each sentence vector with c, a, b and records what it was asked.
 */
class SentenceVectorSearchTest {
    private static final String QUESTION = "which note mentions the plan? Second, when was it changed?";
    private static final float[] WHOLE = {1, 0, 0};
    private static final float[] SECOND = {0, 0.6f, 0.8f};
    private static final StoredChunk A = ChunkFixture.of("ehr", "notes", "a").build();
    private static final StoredChunk B = ChunkFixture.of("ehr", "notes", "b").build();
    private static final StoredChunk C = ChunkFixture.of("ehr", "notes", "c").build();
    private static final List<SearchHit> WHOLE_LIST =
            List.of(new SearchHit(B, 0.30, 1), new SearchHit(A, 0.29, 2), new SearchHit(C, 0.10, 3));

    private final List<List<String>> modelCalls = new ArrayList<>();
    private final List<List<float[]>> searched = new ArrayList<>();

    private SentenceVectorSearch stage(SentenceVectors rule) {
        QueryEmbedder embedder = new QueryEmbedder() {
            @Override
            public String modelId() {
                return ChunkFixture.MODEL;
            }

            @Override
            public float[][] embedQueries(List<String> texts) {
                modelCalls.add(List.copyOf(texts));
                return texts.stream().map(t -> (t.startsWith("Second") ? SECOND : WHOLE).clone()).toArray(float[][]::new);
            }
        };
        SentenceVectorSearch.VectorSearches searches = (vectors, filter) -> {
            searched.add(List.copyOf(vectors));
            return vectors.stream().map(v -> List.of(new SearchHit(C, 0.40, 1), new SearchHit(A, 0.39, 2),
                    new SearchHit(B, 0.10, 3))).toList();
        };
        return new SentenceVectorSearch(rule, embedder, searches, 10);
    }

    @Test
    void theQuestionAndItsSentencesAreEmbeddedInOneModelCallAndEachSentenceIsSearched() {
        SentenceVectorSearch stage = stage(SentenceVectors.MAX);
        SentenceVectorSearch.Embedded embedded = stage.embed(List.of(QUESTION, "the plan"));

        assertThat(modelCalls).containsExactly(List.of(QUESTION, "the plan", "which note mentions the plan?",
                "Second, when was it changed?"));
        assertThat(embedded.variants()).containsExactly(WHOLE, WHOLE);
        assertThat(embedded.sentences()).containsExactly(WHOLE, SECOND);

        List<SearchHit> merged = stage.vectorList(WHOLE_LIST, embedded, RetrievalFilter.NONE);
        assertThat(searched).hasSize(1);
        assertThat(searched.get(0)).containsExactly(WHOLE, SECOND);
        assertThat(merged).extracting(h -> h.chunk().row().rowKey()).containsExactly("c", "a", "b");
        assertThat(merged).extracting(SearchHit::score).containsExactly(0.40, 0.39, 0.30);
    }

    @Test
    void theMeanRuleMovesTheFirstVariantsVectorAndSearchesNoSentence() {
        SentenceVectorSearch stage = stage(SentenceVectors.MEAN);
        SentenceVectorSearch.Embedded embedded = stage.embed(List.of(QUESTION));

        assertThat(embedded.variants()).containsExactly(SentenceVectors.meanOfUnits(List.of(WHOLE, WHOLE, SECOND)));
        assertThat(stage.vectorList(WHOLE_LIST, embedded, RetrievalFilter.NONE)).isEqualTo(WHOLE_LIST);
        assertThat(searched).isEmpty();
    }

    @Test
    void theStandOutRuleDropsASentenceWhoseFirstRowDoesNotStandOut() {
        // the question's list b 0.9, a 0.1, c 0.1 stands out 1; each sentence's (c 0.40, a 0.39, b 0.10) 1 − 0.97 / 2
        SentenceVectorSearch stage = stage(SentenceVectors.STANDOUT);
        List<SearchHit> pointed = List.of(new SearchHit(B, 0.9, 1), new SearchHit(A, 0.1, 2), new SearchHit(C, 0.1, 3));

        assertThat(stage.vectorList(pointed, stage.embed(List.of(QUESTION)), RetrievalFilter.NONE))
                .extracting(h -> h.chunk().row().rowKey()).containsExactly("b", "a", "c");
        assertThat(searched).hasSize(1);
    }

    @Test
    void theClausesRuleDropsAClauseWhoseFirstRowDoesNotStandOutAsTheStandOutRuleDoes() {
        SentenceVectorSearch stage = stage(SentenceVectors.CLAUSES);
        List<SearchHit> pointed = List.of(new SearchHit(B, 0.9, 1), new SearchHit(A, 0.1, 2), new SearchHit(C, 0.1, 3));
        // a question's list that stands out less than the clauses' (1 − 1 / 2 against 1 − 0.97 / 2)
        List<SearchHit> flat = List.of(new SearchHit(B, 0.30, 1), new SearchHit(A, 0.30, 2), new SearchHit(C, 0.10, 3));
        SentenceVectorSearch.Embedded embedded = stage.embed(List.of("which note mentions the plan and when was it changed?"));

        assertThat(modelCalls.get(0)).containsExactly("which note mentions the plan and when was it changed?",
                "which note mentions the plan", "when was it changed?");
        assertThat(stage.vectorList(pointed, embedded, RetrievalFilter.NONE))
                .extracting(h -> h.chunk().row().rowKey()).containsExactly("b", "a", "c");
        assertThat(stage.vectorList(flat, embedded, RetrievalFilter.NONE))
                .extracting(SearchHit::score).containsExactly(0.40, 0.39, 0.30);
    }

    @Test
    void aQuestionOfOneSentenceIsEmbeddedAloneAndItsListKept() {
        for (SentenceVectors rule : SentenceVectors.values()) {
            modelCalls.clear();
            SentenceVectorSearch stage = stage(rule);
            SentenceVectorSearch.Embedded embedded = stage.embed(List.of("Which note mentions the plan for Dr. Smith?"));

            assertThat(modelCalls).containsExactly(List.of("Which note mentions the plan for Dr. Smith?"));
            assertThat(embedded.variants()).containsExactly(WHOLE);
            assertThat(embedded.sentences()).isEmpty();
            assertThat(stage.vectorList(WHOLE_LIST, embedded, RetrievalFilter.NONE)).isEqualTo(WHOLE_LIST);
        }
        assertThat(searched).isEmpty();
    }
}
