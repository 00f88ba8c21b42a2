package org.chartstream.query.audit;

import java.util.List;
import org.chartstream.query.QueryPipeline;
import org.chartstream.query.fusion.FusedCandidate;
import org.chartstream.query.generate.Passage;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.ScoredId;
import org.chartstream.store.SearchHit;

/** Builds the {@link AnswerAudit} evidence record for one request: ids, scores, decisions, timings — no text. */
public final class AuditRecords {
    private AuditRecords() {
    }

    public static AnswerAudit of(QueryRequest request, QueryPipeline.Result result, String embeddingModel) {
        return AnswerAudit.newBuilder()
                .setRequestId(request.getRequestId()).setConversationId(request.getConversationId())
                .setUserId(request.getUserId()).setTsMs(System.currentTimeMillis()).setOutcome(result.outcome())
                .setVariants(List.of("original"))
                .setVectorHits(hits(result.sides().vector())).setLexicalHits(hits(result.sides().lexical()))
                .setFused(result.fused().stream().limit(50).map(AuditRecords::fused).toList())
                .setRerank(List.of()).setReranker(null)
                .setGateDecision(result.gate().describe())
                .setCited(result.passages().stream().map(AuditRecords::cited).toList())
                .setEmbeddingModel(embeddingModel).setGenerationModel(null)
                .setStageMs(result.stageMs()).build();
    }

    public static AnswerAudit rejected(String requestId, String conversationId, String userId, ReplyType outcome,
                                       String reason, String embeddingModel) {
        return AnswerAudit.newBuilder().setRequestId(requestId).setConversationId(conversationId).setUserId(userId)
                .setTsMs(System.currentTimeMillis()).setOutcome(outcome).setGateDecision(reason)
                .setEmbeddingModel(embeddingModel).build();
    }

    private static List<ScoredId> hits(List<SearchHit> hits) {
        return hits.stream().map(h -> new ScoredId(h.chunk().chunkId(), h.score())).toList();
    }

    private static ScoredId fused(FusedCandidate c) {
        return new ScoredId(c.id(), c.score());
    }

    private static CitedChunk cited(Passage p) {
        return new CitedChunk(p.chunk().chunkId(), p.chunk().generation(), p.chunk().sourcePosition());
    }
}
