package org.chartstream.retrieval.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StoredVectorRerankStageTest {
    private static final String[] TEXTS = {
            "icd10 code: F19.20 description: Dependent drug abuse",
            "the patient reports a gout flare in the left toe",
            "icd10 code: I10 description: Essential hypertension"};
    private static OnnxEmbedder model;
    /** The chunks as search hits carry them: with the passage vectors the index holds. */
    private static List<StoredChunk> chunks;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        float[][] vectors = model.embedPassages(List.of(TEXTS));
        chunks = new ArrayList<>();
        for (int i = 0; i < TEXTS.length; i++) {
            chunks.add(ChunkFixture.of("ehr", "notes", "r" + i).text(TEXTS[i]).vector(vectors[i]).model(model.modelId()).build());
        }
    }

    @AfterAll
    static void close() {
        model.close();
    }

    /** Scores by the bi-encoder; counts the passages it was asked to score. */
    private static final class CountingReranker implements Reranker {
        private final BiEncoderReranker biEncoder = new BiEncoderReranker(model);
        int passagesScored;

        @Override
        public String name() {
            return biEncoder.name();
        }

        @Override
        public String scorer() {
            return biEncoder.scorer();
        }

        @Override
        public double[] score(String query, List<String> passages) {
            passagesScored += passages.size();
            return biEncoder.score(query, passages);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void keepsTheFusedOrderAndScoresWithTheHitsVectorsLikeTheBiEncoderWould() {
        CountingReranker fallback = new CountingReranker();
        List<Candidate> fused = List.of(TestCandidates.fused(chunks.get(0), 0.9, 1), TestCandidates.fused(chunks.get(1), 0.8, 2),
                TestCandidates.fused(chunks.get(2), 0.7, 3));

        RerankOutcome outcome = new StoredVectorRerankStage(QueryEmbedder.of(model), fallback).rerank("gout flare", fused, 6);

        assertThat(outcome.ranked()).extracting(c -> c.chunk().chunkId()).containsExactly(
                chunks.get(0).chunkId(), chunks.get(1).chunkId(), chunks.get(2).chunkId());
        assertThat(fallback.passagesScored).as("no passage is embedded again").isZero();
        double[] expected = new BiEncoderReranker(model).score("gout flare", List.of(TEXTS));
        for (int i = 0; i < 3; i++) {
            assertThat(outcome.ranked().get(i).rerankScore()).isCloseTo(expected[i], within(1e-4));
        }
        assertThat(outcome.ranked().get(1).rerankScore()).isGreaterThan(outcome.ranked().get(0).rerankScore());
        assertThat(outcome.scorer()).isEqualTo(Reranker.BI_ENCODER_COSINE);
        assertThat(outcome.reranker()).contains("no cross-encoder configured");
    }

    @Test
    void aHitWithoutAVectorIsScoredFromItsText() {
        CountingReranker fallback = new CountingReranker();
        Candidate noVector = TestCandidates.fused(chunks.get(1).withoutVector(), 0.5, 1);

        RerankOutcome outcome = new StoredVectorRerankStage(QueryEmbedder.of(model), fallback).rerank("gout flare", List.of(noVector), 6);

        assertThat(fallback.passagesScored).isEqualTo(1);
        assertThat(outcome.ranked().get(0).rerankScore())
                .isCloseTo(new BiEncoderReranker(model).score("gout flare", List.of(TEXTS[1]))[0], within(1e-6));
    }
}
