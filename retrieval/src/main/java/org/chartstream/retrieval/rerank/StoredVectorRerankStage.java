package org.chartstream.retrieval.rerank;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.embed.QueryEmbedder;

/**
 * The rerank stage when no cross-encoder is configured. The fused order stands (a bi-encoder would only repeat the
 * vector side and drown the lexical side's exact matches); each candidate of the rerank prefix gets its bi-encoder
 * cosine for the gate and the audit, computed from the vector the index already holds for it (the same passage
 * embedding the model would produce again) and the cached query vector, so no passage is embedded twice. A chunk no
 * longer in the index (its row changed since the search) is scored by the fallback scorer from its text.
 */
public final class StoredVectorRerankStage implements RerankStage {
    private final QueryEmbedder embedder;
    private final HybridStore store;
    private final Reranker fallback;
    private final AdaptiveRerankPrefix prefix = AdaptiveRerankPrefix.DEFAULT;

    public StoredVectorRerankStage(QueryEmbedder embedder, HybridStore store, Reranker fallback) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.store = Objects.requireNonNull(store, "store");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public RerankOutcome rerank(String query, List<RerankCandidate> fused, int topK) {
        AdaptiveRerankPrefix.Cut cut = prefix.cut(fused.stream().map(RerankCandidate::fusedScore).toList(), topK);
        List<RerankCandidate> head = fused.subList(0, cut.length());
        float[] queryVector = head.isEmpty() ? null : embedder.embedQuery(query);
        List<RerankedCandidate> kept = new ArrayList<>(head.size());
        for (int i = 0; i < head.size(); i++) {
            RerankCandidate c = head.get(i);
            float[] stored = storedVector(c);
            double score = stored != null ? dot(queryVector, stored) : fallback.score(query, List.of(c.text()))[0];
            kept.add(new RerankedCandidate(c, score, i + 1));
        }
        return new RerankOutcome(kept, cut, "fused order kept; scored by stored bi-encoder vectors (no cross-encoder configured)",
                Reranker.BI_ENCODER_COSINE);
    }

    private float[] storedVector(RerankCandidate c) {
        String[] parts = c.rowId().split(":", 3);
        if (parts.length < 3) {
            return null;
        }
        for (StoredChunk chunk : store.rowChunks(new RowRef(parts[0], parts[1], parts[2]))) {
            if (chunk.chunkId().equals(c.chunkId())) {
                return chunk.vector();
            }
        }
        return null;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
