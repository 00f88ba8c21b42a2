package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.model.Embedder;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.junit.jupiter.api.Test;

class MemoisedBiEncoderScorerTest {
    /** Unit vectors from the text's length and first letter; records what it was asked to embed. */
    static final class CountingEmbedder implements Embedder {
        final List<String> embeddedPassages = new ArrayList<>();

        @Override
        public String modelId() {
            return "test-model";
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public int maxTokens() {
            return 16;
        }

        @Override
        public float[][] embedPassages(List<String> texts) {
            embeddedPassages.addAll(texts);
            return vectors(texts);
        }

        @Override
        public float[][] embedQueries(List<String> texts) {
            return vectors(texts);
        }

        private static float[][] vectors(List<String> texts) {
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < texts.size(); i++) {
                double angle = texts.get(i).length() * 0.1 + texts.get(i).charAt(0) * 0.01;
                out[i] = new float[] {(float) Math.cos(angle), (float) Math.sin(angle)};
            }
            return out;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void givesTheBiEncoderRerankersScoresAndEmbedsEachPassageOnce() {
        CountingEmbedder embedder = new CountingEmbedder();
        MemoisedBiEncoderScorer scorer = new MemoisedBiEncoderScorer(embedder);
        List<String> passages = List.of("alpha", "a longer passage", "alpha");
        double[] expected = new BiEncoderReranker(new CountingEmbedder()).score("query", passages);

        assertThat(scorer.score("query", passages)).containsExactly(expected);
        assertThat(scorer.score("query", List.of("a longer passage", "beta"))).hasSize(2);
        assertThat(embedder.embeddedPassages).containsExactly("alpha", "a longer passage", "beta");
        assertThat(scorer.memoised()).isEqualTo(3);
        assertThat(scorer.scorer()).isEqualTo(Reranker.BI_ENCODER_COSINE);
        assertThat(scorer.score("query", List.of())).isEmpty();
    }
}
