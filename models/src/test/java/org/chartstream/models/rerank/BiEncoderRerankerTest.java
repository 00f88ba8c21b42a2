package org.chartstream.models.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fallback reranker on the real all-MiniLM-L6-v2 weights. */
class BiEncoderRerankerTest {
    private static OnnxEmbedder embedder;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        embedder = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void itsNameSaysThatNoCrossEncoderIsConfigured() {
        BiEncoderReranker reranker = new BiEncoderReranker(embedder);

        assertThat(reranker.name()).contains("bi-encoder", "all-minilm-l6-v2", "no cross-encoder configured");
        assertThat(reranker.scorer()).isEqualTo(Reranker.BI_ENCODER_COSINE);
    }

    @Test
    void scoresAreCosinesThatPutTheRelevantPassageFirst() {
        BiEncoderReranker reranker = new BiEncoderReranker(embedder);
        double[] scores = reranker.score("high blood pressure treatment",
                List.of("the cafeteria serves pizza on fridays", "hypertension treated with lisinopril"));

        assertThat(Reranker.ranking(scores)).containsExactly(1, 0);
        assertThat(java.util.Arrays.stream(scores).boxed()).allSatisfy(s -> assertThat(s).isBetween(-1.0, 1.0));
    }

    @Test
    void closingStopsTheRerankerButLeavesTheSharedEmbedderOpen() {
        BiEncoderReranker reranker = new BiEncoderReranker(embedder);
        reranker.close();

        assertThatThrownBy(() -> reranker.score("q", List.of("p"))).isInstanceOf(IllegalStateException.class);
        assertThat(embedder.embedQuery("still open")).hasSize(384);
    }

    @Test
    void rankingBreaksTiesByInputPosition() {
        assertThat(Reranker.ranking(new double[] {0.5, 0.7, 0.5, 0.9})).containsExactly(3, 1, 0, 2);
        assertThat(Reranker.ranking(new double[0])).isEmpty();
    }
}
