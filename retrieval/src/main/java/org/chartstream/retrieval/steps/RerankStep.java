package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.rerank.RerankStage;

/** The fused candidates' prefix reordered and scored by the rerank stage in use ({@link RerankStage}). */
public record RerankStep(RerankStage reranker) implements QueryStep {
    @Override
    public String name() { return "rerank"; }

    @Override
    public Next run(QueryRun run) {
        run.reranked(reranker.rerank(run.rewrite().primary(), run.fused(), run.topK()));
        return Next.CONTINUE;
    }
}
