package org.chartstream.query;

/**
 * Query-side settings (DESIGN.md §5 defaults).
 *
 * @param perSide           candidates per search side
 * @param rrfK              reciprocal rank fusion constant
 * @param gateScorer        name of the score the gate reads
 * @param gateThreshold     refuse below this best score (calibrated per scorer)
 * @param maxPassageChars   longest passage quoted in an extractive answer
 * @param maxQuestionChars  longer questions are rejected with an error reply
 * @param maxTopK           largest top_k a request may ask for
 * @param admissionLimit    requests in flight (running or waiting) before new ones get a busy reply
 * @param workers           threads running the pipeline
 */
public record QuerySettings(int perSide, int rrfK, String gateScorer, double gateThreshold, int maxPassageChars,
                            int maxQuestionChars, int maxTopK, int admissionLimit, int workers) {
    public static QuerySettings defaults() {
        return new QuerySettings(50, 60, "bi-encoder-cosine", 0.40, 600, 4000, 30, 32, 2);
    }
}
