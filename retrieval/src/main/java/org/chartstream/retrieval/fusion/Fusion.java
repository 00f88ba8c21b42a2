package org.chartstream.retrieval.fusion;

import java.util.List;
import org.chartstream.retrieval.Candidate;

/**
 * Fuses the vector and the lexical lists of every query variant into one list, best first, each candidate once (by
 * chunk id) with its best position and own score per side and its fused score and rank. A candidate's position on a
 * side is its 1-based place in that side's list; ties of the fused score are broken by row id, then chunk id.
 */
@FunctionalInterface
public interface Fusion {

    /**
     * @param vector  the vector side's list of each variant, best first
     * @param lexical the lexical side's list of each variant, best first
     */
    List<Candidate> fuse(List<List<Candidate>> vector, List<List<Candidate>> lexical);

    /** {@link ReciprocalRankFusion} with {@code k}. */
    static Fusion reciprocalRank(int k) {
        return (vector, lexical) -> ReciprocalRankFusion.fuseAll(vector, lexical, k);
    }

    /**
     * {@link AdaptiveFusion}: normalised scores, the vector weight chosen per query from the two lists and the
     * question's anchors.
     */
    static Fusion adaptive(String question) {
        return (vector, lexical) -> AdaptiveFusion.fuseAll(question, vector, lexical);
    }

    /** {@link NormalizedScoreFusion} with the vector side's weight. */
    static Fusion normalisedScore(double vectorWeight) {
        return (vector, lexical) -> NormalizedScoreFusion.fuseAll(vector, lexical, vectorWeight);
    }
}
