package org.chartstream.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.feedback.DenseFeedback;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.generate.Generator;
import org.chartstream.retrieval.rerank.StoredVectorRerankStage;
import org.chartstream.retrieval.rewrite.NoEndpointRewriter;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.search.HybridSearcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The dense feedback step of a hybrid run: a second vector search with the moved query replaces the first list. */
class QueryPipelineFeedbackTest {
    private static final float[] QUESTION = {1, 0, 0};
    private static final StoredChunk A = ChunkFixture.of("ehr", "notes", "a").vector(new float[] {0, 1, 0}).build();
    private static final StoredChunk B = ChunkFixture.of("ehr", "notes", "b").vector(new float[] {0, 0, 1}).build();
    private static final StoredChunk C = ChunkFixture.of("ehr", "notes", "c").vector(new float[] {0, 1, 0}).build();

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final RecordingStore store = new RecordingStore();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private QueryPipeline pipeline(DenseFeedback feedback) {
        QuerySettings settings = QuerySettings.defaults().withDenseFeedback(feedback);
        QueryEmbedder embedder = new QueryEmbedder() {
            @Override
            public String modelId() {
                return ChunkFixture.MODEL;
            }

            @Override
            public float[][] embedQueries(List<String> questions) {
                return questions.stream().map(q -> QUESTION.clone()).toArray(float[][]::new);
            }
        };
        Reranker unused = new Reranker() {
            @Override
            public String name() {
                return "unused";
            }

            @Override
            public String scorer() {
                return Reranker.BI_ENCODER_COSINE;
            }

            @Override
            public double[] score(String query, List<String> passages) {
                throw new AssertionError("every candidate carries a vector");
            }

            @Override
            public void close() {
            }
        };
        Generator generator = new Generator() {
            @Override
            public String name() {
                return "none";
            }

            @Override
            public GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken) {
                throw new AssertionError("the gate refuses: no stored vector is near the question");
            }
        };
        return new QueryPipeline(new QueryPipeline.Stages(new NoEndpointRewriter(), embedder,
                new HybridSearcher(store, executor, settings.perSide()), new StoredVectorRerankStage(embedder, unused),
                settings.gateFor(Reranker.BI_ENCODER_COSINE), (gated, n) -> List.of(), generator,
                new CohortStage(null, Set::of, settings.cohortCap()), PatientDirectory.NONE), settings);
    }

    @Test
    void aHybridRunSearchesTheVectorSideAgainWithTheQueryMovedTowardsTheFirstFusedRows() {
        QueryPipeline.Result r = pipeline(DenseFeedback.ROCCHIO).run("which note mentions the plan?", SearchMode.HYBRID, 10, null);

        assertThat(store.vectorQueries).hasSize(2);
        assertThat(store.vectorQueries.get(0)).containsExactly(QUESTION);
        // the first fused rows: b (first on both sides), then a, then c
        float[] expected = DenseFeedback.ROCCHIO.query(QUESTION, List.of(
                Candidate.lexicalHit(B, 1, 1), Candidate.vectorHit(A, 1, 1), Candidate.vectorHit(C, 1, 1))).orElseThrow();
        assertThat(store.vectorQueries.get(1)).containsExactly(expected);
        // the moved query's list (c first) replaced the first one and was fused again: c now comes before a
        assertThat(r.sides().get(0).vector()).extracting(h -> h.chunk().row().rowKey()).containsExactly("c", "a", "b");
        assertThat(r.fused()).extracting(c -> c.chunk().row().rowKey()).containsExactly("b", "c", "a");
        assertThat(r.stageMs()).containsKey("feedback");
    }

    @Test
    void withoutFeedbackOrOutsideHybridModeTheVectorSideIsSearchedOnce() {
        pipeline(DenseFeedback.OFF).run("which note mentions the plan?", SearchMode.HYBRID, 10, null);
        assertThat(store.vectorQueries).hasSize(1);

        pipeline(DenseFeedback.ROCCHIO).run("which note mentions the plan?", SearchMode.VECTOR, 10, null);
        assertThat(store.vectorQueries).hasSize(2);
    }

    /** Answers the question's vector with b, a, c and any other vector with c, a, b; BM25 puts b far ahead. */
    private static final class RecordingStore implements HybridStore {
        final List<float[]> vectorQueries = new CopyOnWriteArrayList<>();

        @Override
        public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
            vectorQueries.add(query.clone());
            return java.util.Arrays.equals(query, QUESTION)
                    ? List.of(new SearchHit(B, 0.30, 1), new SearchHit(A, 0.29, 2), new SearchHit(C, 0.10, 3))
                    : List.of(new SearchHit(C, 0.40, 1), new SearchHit(A, 0.39, 2), new SearchHit(B, 0.10, 3));
        }

        @Override
        public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
            return List.of(new SearchHit(B, 9.0, 1), new SearchHit(C, 1.0, 2), new SearchHit(A, 0.5, 3));
        }

        @Override
        public void upsertRow(RowRef row, long generation, List<StoredChunk> chunks) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void deleteRow(RowRef row) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void publish(TableRef table, long generation) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void commit(Map<String, String> checkpoint) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, String> checkpoint() {
            return Map.of();
        }

        @Override
        public Map<TableRef, Long> activeGenerations() {
            return Map.of(new TableRef("ehr", "notes"), 1L);
        }

        @Override
        public long countRows(TableRef table) {
            return 3;
        }

        @Override
        public List<StoredChunk> rowChunks(RowRef row) {
            return new ArrayList<>();
        }

        @Override
        public long chunkCount() {
            return 3;
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
