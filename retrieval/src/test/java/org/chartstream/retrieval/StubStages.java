package org.chartstream.retrieval;

import java.util.List;
import java.util.function.Consumer;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.generate.Generator;

/** Stages a pipeline test stubs: an embedder of one vector, and stages it must never reach (each fails the test, saying why). */
final class StubStages {
    private StubStages() {
    }

    /** An embedder that gives every text {@code vector}. */
    static QueryEmbedder constant(float[] vector) {
        return new QueryEmbedder() {
            @Override
            public String modelId() {
                return ChunkFixture.MODEL;
            }

            @Override
            public float[][] embedQueries(List<String> texts) {
                return texts.stream().map(t -> vector.clone()).toArray(float[][]::new);
            }
        };
    }

    /** A bi-encoder reranker whose scoring fails with {@code why}. */
    static Reranker reranker(String why) {
        return new Reranker() {
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
                throw new AssertionError(why);
            }

            @Override
            public void close() {
            }
        };
    }

    /** A generator that fails with {@code why}. */
    static Generator generator(String why) {
        return new Generator() {
            @Override
            public String name() {
                return "none";
            }

            @Override
            public GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken) {
                throw new AssertionError(why);
            }
        };
    }
}
