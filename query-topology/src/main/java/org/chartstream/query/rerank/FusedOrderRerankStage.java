package org.chartstream.query.rerank;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.models.rerank.Reranker;

/**
 * The rerank stage when no cross-encoder is configured: the fused order stands (a bi-encoder would only repeat the
 * vector side and drown the lexical side's exact matches), and the scorer's scores are attached for the gate and
 * the audit. The audit name says that no reordering took place.
 */
public final class FusedOrderRerankStage implements RerankStage {
    private final Reranker scorer;
    private final AdaptiveRerankPrefix prefix;

    public FusedOrderRerankStage(Reranker scorer) {
        this.scorer = Objects.requireNonNull(scorer, "scorer");
        this.prefix = AdaptiveRerankPrefix.DEFAULT;
    }

    @Override
    public RerankOutcome rerank(String query, List<RerankCandidate> fused, int topK) {
        AdaptiveRerankPrefix.Cut cut = prefix.cut(fused.stream().map(RerankCandidate::fusedScore).toList(), topK);
        List<RerankCandidate> head = fused.subList(0, cut.length());
        double[] scores = scorer.score(query, head.stream().map(RerankCandidate::text).toList());
        List<RerankedCandidate> kept = new ArrayList<>(head.size());
        for (int i = 0; i < head.size(); i++) {
            kept.add(new RerankedCandidate(head.get(i), scores[i], i + 1));
        }
        return new RerankOutcome(kept, cut, "fused order kept; scored by " + scorer.name(), scorer.scorer());
    }
}
