package org.chartstream.retrieval.rerank;

import java.util.List;
import org.chartstream.retrieval.Candidate;

/** Reorders the fused candidates by a finer relevance score. */
public interface RerankStage {

    /**
     * @param query the primary (standalone) query
     * @param fused fused candidates best first, one per row
     * @param topK  how many answers the request asked for (the prefix never goes below it)
     * @return the reranked prefix, each candidate with its {@linkplain Candidate#rerankScore() rerank score}
     */
    RerankOutcome rerank(String query, List<Candidate> fused, int topK);
}
