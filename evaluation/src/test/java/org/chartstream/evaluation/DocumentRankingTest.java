package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.fusion.FusedCandidate;
import org.chartstream.retrieval.gate.GateDecision;
import org.chartstream.retrieval.rerank.RerankCandidate;
import org.chartstream.retrieval.rerank.RerankedCandidate;
import org.chartstream.retrieval.search.SideResults;
import org.junit.jupiter.api.Test;

class DocumentRankingTest {
    private static final RowRef NOTE = new RowRef("ehr", "clinical_notes", "7");
    private static final RowRef DOC_WITH_COLON = new RowRef("ehr", "beir_docs", "conditions:12");
    private static final RowRef OTHER = new RowRef("ehr", "beir_docs", "b");

    private static SearchHit hit(RowRef row, int chunk, int rank) {
        StoredChunk c = ChunkFixture.of(row).index(chunk, 2).text("text").build();
        return new SearchHit(c, 1.0 / rank, rank);
    }

    private static QueryPipeline.Result result(List<SearchHit> vector, List<SearchHit> lexical, List<String> fusedChunkIds,
                                               List<RerankedCandidate> reranked) {
        List<FusedCandidate> fused = fusedChunkIds.stream().map(id -> new FusedCandidate(id, 0.01, 0, 0)).toList();
        return new QueryPipeline.Result(Outcome.ANSWER, "", true, List.of(), List.of("q"), "", List.of(new SideResults(vector, lexical)),
                fused, reranked, "r", "p", new GateDecision(true, "bi-encoder-cosine", 0.5, 0.4, ""), "", "g", List.of(), Map.of());
    }

    @Test
    void fusedChunksBecomeOneDocumentPerRowFoundThroughTheirHits() {
        SearchHit second = hit(NOTE, 1, 1);
        SearchHit first = hit(NOTE, 0, 2);
        SearchHit colon = hit(DOC_WITH_COLON, 0, 1);
        QueryPipeline.Result r = result(List.of(second, first), List.of(colon),
                List.of(second.chunk().chunkId(), colon.chunk().chunkId(), first.chunk().chunkId()), List.of());
        assertThat(DocumentRanking.fused(r, DocumentRanking::tableAndRowKey)).containsExactly("clinical_notes:7", "beir_docs:conditions:12");
        assertThat(DocumentRanking.fused(r, DocumentRanking::rowKey)).containsExactly("7", "conditions:12");
    }

    @Test
    void theFinalOrderIsTheRerankedPrefixThenTheRestOfTheFusedOrder() {
        SearchHit a = hit(OTHER, 0, 1);
        SearchHit b = hit(DOC_WITH_COLON, 0, 2);
        SearchHit c = hit(NOTE, 0, 3);
        RerankedCandidate bFirst = new RerankedCandidate(new RerankCandidate(b.chunk().chunkId(), DOC_WITH_COLON.id(), "t", 0.01), 0.9, 2);
        RerankedCandidate aSecond = new RerankedCandidate(new RerankCandidate(a.chunk().chunkId(), OTHER.id(), "t", 0.02), 0.5, 1);
        QueryPipeline.Result r = result(List.of(a, b, c), List.of(),
                List.of(a.chunk().chunkId(), b.chunk().chunkId(), c.chunk().chunkId()), List.of(bFirst, aSecond));
        assertThat(DocumentRanking.finalOrder(r, DocumentRanking::rowKey)).containsExactly("conditions:12", "b", "7");
        assertThat(DocumentRanking.fused(r, DocumentRanking::rowKey)).containsExactly("b", "conditions:12", "7");
    }
}
