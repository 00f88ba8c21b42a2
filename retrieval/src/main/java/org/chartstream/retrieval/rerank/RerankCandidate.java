package org.chartstream.retrieval.rerank;

import java.util.Objects;

/**
 * A fused candidate on its way to the reranker.
 *
 * @param chunkId    the chunk's id
 * @param rowId      its row's id ({@code source:table:rowKey}), for the second row dedupe
 * @param text       what the reranker reads
 * @param fusedScore its reciprocal-rank-fusion score
 */
public record RerankCandidate(String chunkId, String rowId, String text, double fusedScore) {
    public RerankCandidate {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(rowId, "rowId");
        Objects.requireNonNull(text, "text");
    }

    /** Ids and score only: the text is patient data. */
    @Override
    public String toString() {
        return "RerankCandidate[" + chunkId + ", fused=" + fusedScore + "]";
    }
}
