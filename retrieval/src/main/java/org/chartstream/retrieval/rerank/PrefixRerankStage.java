package org.chartstream.retrieval.rerank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.retrieval.Candidate;

/**
 * The default {@link RerankStage}: cuts the fused list at the {@link AdaptiveRerankPrefix}, scores that prefix with
 * the {@link Reranker} (a cross-encoder, or the bi-encoder fallback), orders by score with the fused rank breaking
 * ties.
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
    public RerankOutcome rerank(String query, List<Candidate> fused, int topK) {
        Objects.requireNonNull(query, "query");
        AdaptiveRerankPrefix.Cut cut = prefix.cut(fused.stream().map(Candidate::fusedScore).toList(), topK);
        List<Candidate> head = fused.subList(0, cut.length());
        double[] scores = reranker.score(query, head.stream().map(c -> c.chunk().text()).toList());
        List<Candidate> ranked = new ArrayList<>(head.size());
        for (int i = 0; i < head.size(); i++) {
            ranked.add(head.get(i).withRerankScore(scores[i]));
        }
        ranked.sort(Comparator.comparingDouble((Candidate c) -> -c.rerankScore()).thenComparingInt(Candidate::fusedRank));
        return new RerankOutcome(ranked, cut, reranker.name(), reranker.scorer());
    }
}
