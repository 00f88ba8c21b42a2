package org.chartstream.retrieval.rerank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.retrieval.dedupe.RowDedupe;

/**
 * The default {@link RerankStage}: cuts the fused list at the {@link AdaptiveRerankPrefix}, scores that prefix with
 * the {@link Reranker} (a cross-encoder, or the bi-encoder fallback), orders by score with the fused rank breaking
 * ties, then keeps the strongest chunk per row again.
 */
public final class PrefixRerankStage implements RerankStage {
    private final Reranker reranker;
    private final AdaptiveRerankPrefix prefix;

    public PrefixRerankStage(Reranker reranker, AdaptiveRerankPrefix prefix) {
        this.reranker = Objects.requireNonNull(reranker, "reranker");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** With the {@linkplain AdaptiveRerankPrefix#DEFAULT default} prefix. */
    public PrefixRerankStage(Reranker reranker) {
        this(reranker, AdaptiveRerankPrefix.DEFAULT);
    }

    @Override
    public RerankOutcome rerank(String query, List<RerankCandidate> fused, int topK) {
        Objects.requireNonNull(query, "query");
        AdaptiveRerankPrefix.Cut cut = prefix.cut(fused.stream().map(RerankCandidate::fusedScore).toList(), topK);
        List<RerankCandidate> head = fused.subList(0, cut.length());
        double[] scores = reranker.score(query, head.stream().map(RerankCandidate::text).toList());
        List<RerankedCandidate> ranked = new ArrayList<>(head.size());
        for (int i = 0; i < head.size(); i++) {
            ranked.add(new RerankedCandidate(head.get(i), scores[i], i + 1));
        }
        ranked.sort(Comparator.comparingDouble((RerankedCandidate r) -> -r.score()).thenComparingInt(RerankedCandidate::fusedRank));
        List<RerankedCandidate> perRow = RowDedupe.strongestPerRow(ranked, r -> r.candidate().rowId());
        return new RerankOutcome(perRow, cut, reranker.name(), reranker.scorer());
    }
}
