package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.rerank.RerankStage;

/** The fused candidates' prefix reordered and scored by the rerank stage in use ({@link RerankStage}). */
public final class RerankStep implements QueryStep {
    private final RerankStage reranker;

    public RerankStep(RerankStage reranker) {
        this.reranker = reranker;
    }

    @Override
    public String name() {
        return "rerank";
    }

    @Override
    public Next run(QueryRun run) {
        run.reranked(reranker.rerank(run.rewrite().primary(), run.fused(), run.topK()));
        return Next.CONTINUE;
    }
}
