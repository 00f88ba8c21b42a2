package org.chartstream.query.audit;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.SearchHit;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.search.SideResults;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.ScoredId;

/**
 * Builds the {@link AnswerAudit} evidence record for one request: variants, each side's ranked ids and scores
 * (prefixed {@code q<n>|} for the n-th variant beyond the first), fused order, rerank scores, gate decision, cited
 * chunks with generations and source positions, models, stage timings. Record text never goes into it.
 */
public final class AuditRecords {
    private static final int MAX_FUSED = 100;

    private AuditRecords() {
    }

    public static AnswerAudit of(QueryRequest request, QueryPipeline.Result result, String embeddingModel) {
        List<ScoredId> vector = new ArrayList<>();
        List<ScoredId> lexical = new ArrayList<>();
        for (int i = 0; i < result.sides().size(); i++) {
            SideResults side = result.sides().get(i);
            String prefix = i == 0 ? "" : "q" + i + "|";
            vector.addAll(hits(prefix, side.vector()));
            lexical.addAll(hits(prefix, side.lexical()));
        }
        return AnswerAudit.newBuilder()
                .setRequestId(request.getRequestId()).setConversationId(request.getConversationId())
                .setUserId(request.getUserId()).setTsMs(System.currentTimeMillis()).setOutcome(RetrievalTypes.replyType(result.outcome()))
                .setVariants(result.variants()).setVectorHits(vector).setLexicalHits(lexical)
                .setFused(result.fused().stream().limit(MAX_FUSED).map(AuditRecords::fused).toList())
                .setRerank(result.reranked().stream().map(AuditRecords::reranked).toList())
                .setReranker(result.reranker()).setRerankPrefix(result.rerankPrefix()).setRewrite(result.rewrite())
                .setGateDecision(result.gateDescription())
                .setCited(result.passages().stream().map(AuditRecords::cited).toList())
                .setFlaggedCitations(result.flaggedCitations())
                .setEmbeddingModel(embeddingModel).setGenerationModel(result.generator())
                .setStageMs(result.stageMs())
                .setPatientScope(result.scope() == null ? null : result.scope().describe())
                .setCompleteness(RetrievalTypes.completeness(result.completeness()))
                .setCohort(RetrievalTypes.cohort(result.completeness())).build();
    }

    public static AnswerAudit rejected(String requestId, String conversationId, String userId, ReplyType outcome,
                                       String reason, String embeddingModel) {
        return AnswerAudit.newBuilder().setRequestId(requestId).setConversationId(conversationId).setUserId(userId)
                .setTsMs(System.currentTimeMillis()).setOutcome(outcome).setGateDecision(reason)
                .setEmbeddingModel(embeddingModel).build();
    }

    private static List<ScoredId> hits(String prefix, List<SearchHit> hits) {
        return hits.stream().map(h -> new ScoredId(prefix + h.chunk().chunkId(), h.score())).toList();
    }

    private static ScoredId fused(Candidate c) {
        return new ScoredId(c.chunk().chunkId(), c.fusedScore());
    }

    private static ScoredId reranked(Candidate c) {
        return new ScoredId(c.chunk().chunkId(), c.rerankScore());
    }

    private static CitedChunk cited(Passage p) {
        return new CitedChunk(p.chunk().chunkId(), p.chunk().generation(), p.chunk().sourcePosition(),
                contentSha256(p.chunk().text()));
    }

    /** SHA-256 of a chunk's stored text, hex: lets an audit tell whether the text behind a citation has changed. */
    public static String contentSha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
