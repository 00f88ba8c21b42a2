package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.gate.QuestionScope;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.rerank.AdaptiveRerankPrefix;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.junit.jupiter.api.Test;

class DocumentRankingTest {
    private static final RowRef NOTE = new RowRef("ehr", "clinical_notes", "7");
    private static final RowRef DOC_WITH_COLON = new RowRef("ehr", "beir_docs", "conditions:12");
    private static final RowRef OTHER = new RowRef("ehr", "beir_docs", "b");

    private static StoredChunk chunk(RowRef row, int chunk) {
        return ChunkFixture.of(row).index(chunk, 2).build();
    }

    /** The fused list: these chunks in this order. */
    private static List<Candidate> fused(StoredChunk... chunks) {
        return IntStream.range(0, chunks.length)
                .mapToObj(i -> Candidate.vectorHit(chunks[i], 0.5, i + 1).withFused(0.01, i + 1)).toList();
    }

    private static QueryPipeline.Result result(List<Candidate> fused, List<Candidate> reranked) {
        RerankOutcome rerank = new RerankOutcome(reranked, new AdaptiveRerankPrefix.Cut(reranked.size(), "p"), "r", "bi-encoder-cosine");
        ScopedGateDecision gate = new ScopedGateDecision(true, QuestionScope.POINTED, "", "bi-encoder-cosine", 0.5, 0.4, 1, "");
        return new QueryPipeline.Result(new Answer(Outcome.ANSWER, "", true, List.of(), "g", List.of(),
                Optional.of(Completeness.MOST_RELEVANT)), new RetrievalTrace.Ranked(List.of("q"), "", List.of(), fused, rerank, gate),
                PatientScope.NONE, Map.of());
    }

    @Test
    void fusedCandidatesBecomeOneDocumentPerRowByTheirChunksRow() {
        QueryPipeline.Result r = result(fused(chunk(NOTE, 1), chunk(DOC_WITH_COLON, 0), chunk(NOTE, 0)), List.of());

        assertThat(DocumentRanking.fused(r, DocumentRanking::tableAndRowKey)).containsExactly("clinical_notes:7", "beir_docs:conditions:12");
        assertThat(DocumentRanking.fused(r, DocumentRanking::rowKey)).containsExactly("7", "conditions:12");
    }

    @Test
    void theFinalOrderIsTheRerankedPrefixThenTheRestOfTheFusedOrder() {
        List<Candidate> fused = fused(chunk(OTHER, 0), chunk(DOC_WITH_COLON, 0), chunk(NOTE, 0));
        QueryPipeline.Result r = result(fused, List.of(fused.get(1).withRerankScore(0.9), fused.get(0).withRerankScore(0.5)));

        assertThat(DocumentRanking.finalOrder(r, DocumentRanking::rowKey)).containsExactly("conditions:12", "b", "7");
        assertThat(DocumentRanking.fused(r, DocumentRanking::rowKey)).containsExactly("b", "conditions:12", "7");
    }
}
