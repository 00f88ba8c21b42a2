package org.chartstream.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.chartstream.query.dedupe.RowDedupe;
import org.chartstream.query.embed.QueryEmbedder;
import org.chartstream.query.fusion.FusedCandidate;
import org.chartstream.query.fusion.ReciprocalRankFusion;
import org.chartstream.query.gate.EvidenceGate;
import org.chartstream.query.gate.GateDecision;
import org.chartstream.query.generate.ExtractiveAnswer;
import org.chartstream.query.generate.Passage;
import org.chartstream.query.search.HybridSearcher;
import org.chartstream.query.search.SideResults;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.SearchMode;
import org.chartstream.store.HybridStore;
import org.chartstream.store.RetrievalFilter;
import org.chartstream.store.SearchHit;
import org.chartstream.store.StoredChunk;

/**
 * The retrieval stages for one question, free of Kafka: embed → vector and lexical search → RRF → row dedupe →
 * top_k → gate → extractive answer with numbered citations.
 */
public final class QueryPipeline {
    private final QueryEmbedder embedder;
    private final HybridSearcher searcher;
    private final EvidenceGate gate;
    private final QuerySettings settings;

    /** Everything one run decided, for the reply and for the audit record. */
    public record Result(ReplyType outcome, String answer, boolean extractive, List<Passage> passages,
                         SideResults sides, List<FusedCandidate> fused, GateDecision gate, Map<String, Long> stageMs) {
    }

    public QueryPipeline(QueryEmbedder embedder, HybridStore store, ExecutorService searchExecutor, QuerySettings settings) {
        this.embedder = embedder;
        this.searcher = new HybridSearcher(store, searchExecutor, settings.perSide());
        this.gate = new EvidenceGate(settings.gateScorer(), settings.gateThreshold());
        this.settings = settings;
    }

    public String embeddingModel() {
        return embedder.modelId();
    }

    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter) {
        return run(question, mode, topK, filter, null);
    }

    /**
     * @param memory the conversation so far (continuity only, never cited), or null for a first turn
     */
    public Result run(String question, SearchMode mode, int topK, RetrievalFilter filter, ConversationMemory memory) {
        Map<String, Long> stageMs = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        float[] queryVector = mode == SearchMode.LEXICAL ? null : embedder.embedQuery(question);
        long t1 = lap(stageMs, "embed", t0);
        SideResults sides = searcher.search(mode, queryVector, question, filter);
        long t2 = lap(stageMs, "search", t1);

        Map<String, SearchHit> byId = new HashMap<>();
        Map<String, Double> vectorScore = new HashMap<>();
        sides.lexical().forEach(h -> byId.put(h.chunk().chunkId(), h));
        sides.vector().forEach(h -> {
            byId.put(h.chunk().chunkId(), h);
            vectorScore.put(h.chunk().chunkId(), h.score());
        });
        List<FusedCandidate> fused = ReciprocalRankFusion.fuse(ids(sides.vector()), ids(sides.lexical()), settings.rrfK());
        List<FusedCandidate> perRow = RowDedupe.strongestPerRow(fused, c -> byId.get(c.id()).chunk().row().id());
        List<FusedCandidate> top = perRow.subList(0, Math.min(topK, perRow.size()));
        long t3 = lap(stageMs, "fuse", t2);

        double best = top.stream().mapToDouble(c -> vectorScore.getOrDefault(c.id(), Double.NEGATIVE_INFINITY)).max().orElse(0);
        GateDecision decision = mode == SearchMode.LEXICAL
                ? new GateDecision(!top.isEmpty(), "none (lexical mode)", 0, 0, top.isEmpty() ? "nothing retrieved" : "lexical hits present")
                : gate.decide(best, top.size());
        lap(stageMs, "gate", t3);

        List<Passage> passages = new ArrayList<>();
        if (decision.answer()) {
            for (FusedCandidate c : top) {
                StoredChunk chunk = byId.get(c.id()).chunk();
                passages.add(new Passage(passages.size() + 1, chunk, c.score()));
            }
        }
        String answer = decision.answer()
                ? ExtractiveAnswer.compose(passages, settings.maxPassageChars())
                : "No answer: the indexed records do not support an answer to this question (" + decision.reason() + ").";
        stageMs.put("total", (System.nanoTime() - t0) / 1_000_000);
        return new Result(decision.answer() ? ReplyType.ANSWER : ReplyType.REFUSED, answer, decision.answer(),
                passages, sides, fused, decision, stageMs);
    }

    private static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(h -> h.chunk().chunkId()).toList();
    }

    private static long lap(Map<String, Long> stageMs, String stage, long since) {
        long now = System.nanoTime();
        stageMs.put(stage, (now - since) / 1_000_000);
        return now;
    }
}
