package org.chartstream.retrieval.rerank;

/**
 * A candidate after reranking.
 *
 * @param score     the reranker's score (on the reranker's scorer scale)
 * @param fusedRank its 1-based rank in the fused list, which breaks ties between equal scores
 */
public record RerankedCandidate(RerankCandidate candidate, double score, int fusedRank) {
}
