package org.chartstream.retrieval;

import java.util.Objects;
import org.chartstream.core.store.StoredChunk;

/**
 * One candidate on the query path, from the search sides to the context: the chunk that stands for its row and what
 * the stages found out about it. Row dedupe makes one per row and side, fusion merges them and sets the fused score
 * and rank, the rerank stage sets the rerank score; tail trim, gate and context read them.
 *
 * @param chunk        the chunk: ids, row, text, and its vector when the store returned one
 * @param vectorScore  the vector side's own score (cosine), the best over the lists it is in; 0 when not found there
 * @param vectorRank   1-based position on the vector side, the best over the lists; 0 when that side did not find it
 * @param lexicalScore the lexical side's own score (BM25), likewise
 * @param lexicalRank  1-based position on the lexical side, likewise
 * @param fusedScore   the fused score; {@link Double#NaN} before fusion
 * @param fusedRank    1-based position in the fused list, which breaks ties between equal rerank scores; 0 before
 *                     fusion
 * @param rerankScore  the rerank stage's score, on its scorer's scale; {@link Double#NaN} before the rerank
 */
public record Candidate(StoredChunk chunk, double vectorScore, int vectorRank, double lexicalScore, int lexicalRank,
                        double fusedScore, int fusedRank, double rerankScore) {

    public Candidate {
        Objects.requireNonNull(chunk, "chunk");
        if (vectorRank < 0 || lexicalRank < 0 || fusedRank < 0) {
            throw new IllegalArgumentException("ranks are 1-based, 0 for none: " + vectorRank + ", " + lexicalRank
                    + ", " + fusedRank);
        }
    }

    /** Found by the vector side at {@code rank} with {@code score}. */
    public static Candidate vectorHit(StoredChunk chunk, double score, int rank) {
        return new Candidate(chunk, score, requireFound(rank), 0, 0, Double.NaN, 0, Double.NaN);
    }

    /** Found by the lexical side at {@code rank} with {@code score}. */
    public static Candidate lexicalHit(StoredChunk chunk, double score, int rank) {
        return new Candidate(chunk, 0, 0, score, requireFound(rank), Double.NaN, 0, Double.NaN);
    }

    /** The same candidate at {@code rank} of the fused list with {@code score}. */
    public Candidate withFused(double score, int rank) {
        return new Candidate(chunk, vectorScore, vectorRank, lexicalScore, lexicalRank, score, requireFound(rank),
                rerankScore);
    }

    /** The same candidate with the rerank stage's score. */
    public Candidate withRerankScore(double score) {
        return new Candidate(chunk, vectorScore, vectorRank, lexicalScore, lexicalRank, fusedScore, fusedRank, score);
    }

    private static int requireFound(int rank) {
        if (rank < 1) {
            throw new IllegalArgumentException("rank is 1-based: " + rank);
        }
        return rank;
    }
}
