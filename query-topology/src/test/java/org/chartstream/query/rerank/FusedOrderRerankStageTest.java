package org.chartstream.query.rerank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.models.rerank.Reranker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FusedOrderRerankStageTest {
    private static OnnxEmbedder model;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
    }

    @AfterAll
    static void close() {
        model.close();
    }

    @Test
    void keepsTheFusedOrderAndAttachesTheBiEncoderScoresForTheGate() {
        List<RerankCandidate> fused = List.of(
                new RerankCandidate("c:1:0:1", "c:1", "icd10 code: F19.20 description: Dependent drug abuse", 0.033),
                new RerankCandidate("n:2:0:1", "n:2", "the patient reports a gout flare in the left toe", 0.032),
                new RerankCandidate("c:3:0:1", "c:3", "icd10 code: I10 description: Essential hypertension", 0.031));

        RerankOutcome outcome = new FusedOrderRerankStage(new BiEncoderReranker(model)).rerank("gout flare", fused, 6);

        assertThat(outcome.ranked()).extracting(r -> r.candidate().chunkId()).containsExactly("c:1:0:1", "n:2:0:1", "c:3:0:1");
        assertThat(outcome.ranked()).extracting(RerankedCandidate::fusedRank).containsExactly(1, 2, 3);
        assertThat(outcome.ranked().get(1).score()).isGreaterThan(outcome.ranked().get(0).score());
        assertThat(outcome.scorer()).isEqualTo(Reranker.BI_ENCODER_COSINE);
        assertThat(outcome.reranker()).startsWith("fused order kept");
    }
}
