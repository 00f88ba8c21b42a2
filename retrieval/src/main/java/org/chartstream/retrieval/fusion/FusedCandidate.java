package org.chartstream.retrieval.fusion;

/** A candidate after fusion: its id, fused score and 1-based rank on each side (0 when absent from a side). */
public record FusedCandidate(String id, double score, int vectorRank, int lexicalRank) {
}
