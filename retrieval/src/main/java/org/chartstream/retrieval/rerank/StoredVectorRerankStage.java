package org.chartstream.retrieval.rerank;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.embed.QueryEmbedder;

/**
 * The rerank stage when no cross-encoder is configured. The fused order stands (a bi-encoder would only repeat the
 * vector side and drown the lexical side's exact matches); each candidate of the rerank prefix gets its bi-encoder
 * cosine for the gate and the audit, computed from the vector its search hit carried (the passage embedding the index
 * holds, the same the model would produce again) and the cached query vector, so no passage is embedded twice. A
 * candidate without a vector (from a store that returns none) is scored by the fallback scorer from its text.
 */
public final class StoredVectorRerankStage implements RerankStage {
    private final QueryEmbedder embedder;
    private final Reranker fallback;
    private final AdaptiveRerankPrefix prefix = AdaptiveRerankPrefix.DEFAULT;

    public StoredVectorRerankStage(QueryEmbedder embedder, Reranker fallback) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public RerankOutcome rerank(String query, List<Candidate> fused, int topK) {
        AdaptiveRerankPrefix.Cut cut = prefix.cut(fused.stream().map(Candidate::fusedScore).toList(), topK);
        List<Candidate> head = fused.subList(0, cut.length());
        float[] queryVector = head.isEmpty() ? null : embedder.embedQuery(query);
        List<Candidate> kept = new ArrayList<>(head.size());
        for (Candidate c : head) {
            float[] stored = c.chunk().vector();
            double score = stored != null ? dot(queryVector, stored) : fallback.score(query, List.of(c.chunk().text()))[0];
            kept.add(c.withRerankScore(score));
        }
        return new RerankOutcome(kept, cut, "fused order kept; scored by stored bi-encoder vectors (no cross-encoder configured)",
                Reranker.BI_ENCODER_COSINE);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
