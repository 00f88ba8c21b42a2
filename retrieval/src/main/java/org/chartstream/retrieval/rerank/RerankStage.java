package org.chartstream.retrieval.rerank;

import java.util.List;

/** Reorders the fused candidates by a finer relevance score. */
public interface RerankStage {

    /**
     * @param query the primary (standalone) query
     * @param fused fused candidates best first, already one per row
     * @param topK  how many answers the request asked for (the prefix never goes below it)
     */
    RerankOutcome rerank(String query, List<RerankCandidate> fused, int topK);
}
