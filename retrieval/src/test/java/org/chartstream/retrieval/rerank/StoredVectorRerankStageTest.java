package org.chartstream.retrieval.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredVectorRerankStageTest {
    private static final String[] TEXTS = {
            "icd10 code: F19.20 description: Dependent drug abuse",
            "the patient reports a gout flare in the left toe",
            "icd10 code: I10 description: Essential hypertension"};
    @TempDir
    static Path dir;
    private static OnnxEmbedder model;
    private static LuceneHybridStore store;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        store = LuceneHybridStore.open(dir.resolve("index"));
        float[][] vectors = model.embedPassages(List.of(TEXTS));
        for (int i = 0; i < TEXTS.length; i++) {
            RowRef row = new RowRef("ehr", "notes", "r" + i);
            store.upsertRow(row, 1, List.of(new StoredChunk(StoredChunk.chunkId(row, 0, 1), row, 0, 1, 1, TEXTS[i], vectors[i],
                    null, "lsn:1", 1L, model.modelId())));
        }
        store.publish(new TableRef("ehr", "notes"), 1);
        store.commit(Map.of());
    }

    @AfterAll
    static void close() {
        store.close();
        model.close();
    }

    private static RerankCandidate candidate(int i, double fused) {
        RowRef row = new RowRef("ehr", "notes", "r" + i);
        return new RerankCandidate(StoredChunk.chunkId(row, 0, 1), row.id(), TEXTS[i], fused);
    }

    @Test
    void keepsTheFusedOrderAndScoresWithTheStoredVectorsLikeTheBiEncoderWould() {
        BiEncoderReranker biEncoder = new BiEncoderReranker(model);
        List<RerankCandidate> fused = List.of(candidate(0, 0.9), candidate(1, 0.8), candidate(2, 0.7));

        RerankOutcome outcome = new StoredVectorRerankStage(QueryEmbedder.of(model), store, biEncoder).rerank("gout flare", fused, 6);

        assertThat(outcome.ranked()).extracting(r -> r.candidate().chunkId()).containsExactly(
                fused.get(0).chunkId(), fused.get(1).chunkId(), fused.get(2).chunkId());
        double[] expected = biEncoder.score("gout flare", List.of(TEXTS));
        for (int i = 0; i < 3; i++) {
            assertThat(outcome.ranked().get(i).score()).isCloseTo(expected[i], within(1e-4));
        }
        assertThat(outcome.ranked().get(1).score()).isGreaterThan(outcome.ranked().get(0).score());
        assertThat(outcome.scorer()).isEqualTo(Reranker.BI_ENCODER_COSINE);
        assertThat(outcome.reranker()).contains("no cross-encoder configured");
    }

    @Test
    void aChunkNoLongerInTheIndexIsScoredFromItsText() {
        RowRef gone = new RowRef("ehr", "notes", "deleted");
        RerankCandidate c = new RerankCandidate(StoredChunk.chunkId(gone, 0, 1), gone.id(), TEXTS[1], 0.5);
        BiEncoderReranker biEncoder = new BiEncoderReranker(model);

        RerankOutcome outcome = new StoredVectorRerankStage(QueryEmbedder.of(model), store, biEncoder).rerank("gout flare", List.of(c), 6);

        assertThat(outcome.ranked().get(0).score()).isCloseTo(biEncoder.score("gout flare", List.of(TEXTS[1]))[0], within(1e-6));
    }
}
