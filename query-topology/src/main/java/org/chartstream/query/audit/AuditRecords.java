package org.chartstream.query.audit;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.SearchHit;
import org.chartstream.query.RetrievalTypes;
import org.chartstream.query.WireSetResult;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
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
 * chunks with generations and source positions, models, stage timings, a whole-set answer's counts, row ids and
 * concepts. Record text never goes into it.
 */
public final class AuditRecords {
    private static final int MAX_FUSED = 100;

    private AuditRecords() {
    }

    public static AnswerAudit of(QueryRequest request, QueryPipeline.Result result, String embeddingModel) {
        Answer answer = result.answer();
        AnswerAudit.Builder audit = AnswerAudit.newBuilder()
                .setRequestId(request.getRequestId()).setConversationId(request.getConversationId())
                .setUserId(request.getUserId()).setTsMs(System.currentTimeMillis())
                .setOutcome(RetrievalTypes.replyType(answer.outcome()))
                .setGateDecision(result.trace().gateDescription())
                .setCited(answer.passages().stream().map(AuditRecords::cited).toList())
                .setFlaggedCitations(answer.flaggedCitations())
                .setEmbeddingModel(embeddingModel).setGenerationModel(answer.generator())
                .setStageMs(result.stageMs())
                .setPatientScope(result.scope().describe())
                .setCompleteness(RetrievalTypes.completeness(answer.completeness()))
                .setCohort(RetrievalTypes.cohort(answer.completeness()))
                .setSetResult(WireSetResult.audit(WireSetResult.of(answer.set())));
        switch (result.trace()) {
            case RetrievalTrace.Ranked ranked -> ranked(audit, ranked);
            // the rows a cohort lists are its cited passages; none was searched, fused or scored
            case RetrievalTrace.Cohort cohort -> audit.setVariants(List.of()).setRewrite("cohort question: no rewrite")
                    .setReranker(RetrievalTrace.Cohort.LOOKUP).setRerankPrefix("none");
            case RetrievalTrace.Clarified clarified -> audit.setVariants(List.of(clarified.question()))
                    .setRewrite("not run: the question does not say which patient");
            case RetrievalTrace.UnknownPatient unknown -> audit.setVariants(List.of(unknown.question()))
                    .setRewrite("not run: the question names a patient number no indexed patient has");
        }
        return audit.build();
    }

    /** Variants, each side's ranked ids and scores, fused order, rerank scores, reranker and prefix. */
    private static void ranked(AnswerAudit.Builder audit, RetrievalTrace.Ranked trace) {
        List<ScoredId> vector = new ArrayList<>();
        List<ScoredId> lexical = new ArrayList<>();
        for (int i = 0; i < trace.sides().size(); i++) {
            SideResults side = trace.sides().get(i);
            String prefix = i == 0 ? "" : "q" + i + "|";
            vector.addAll(hits(prefix, side.vector()));
            lexical.addAll(hits(prefix, side.lexical()));
        }
        audit.setVariants(trace.variants()).setVectorHits(vector).setLexicalHits(lexical)
                .setFused(trace.fused().stream().limit(MAX_FUSED).map(AuditRecords::fused).toList())
                .setRerank(trace.reranked().stream().map(AuditRecords::reranked).toList())
                .setReranker(trace.rerank().reranker()).setRerankPrefix(trace.rerank().prefix().reason())
                .setRewrite(trace.rewrite());
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
