package org.chartstream.retrieval;

import java.util.Objects;
import org.chartstream.core.model.Reranker;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.feedback.DenseFeedback;
import org.chartstream.retrieval.feedback.LexicalFeedback;
import org.chartstream.retrieval.fusion.NormalizedScoreFusion;
import org.chartstream.retrieval.gate.ScopedEvidenceGate;
import org.chartstream.retrieval.search.QuestionTermWeights;

/**
 * Query-side settings (DESIGN.md §5 defaults).
 *
 * @param perSide                   candidates per search side and variant
 * @param rrfK                      reciprocal rank fusion constant
 * @param biEncoderGateThreshold    refuse a pointed question when the best bi-encoder cosine is below this
 * @param crossEncoderGateThreshold the same for a cross-encoder's sigmoid score
 * @param maxPassageChars           longest passage quoted in an extractive answer
 * @param maxQuestionChars          longer questions are rejected with an error reply
 * @param maxTopK                   largest top_k a request may ask for ({@link #MAX_TOP_K}); larger ones are rejected naming
 *                                  top_k, up to it every passage is cited (the context budget is shared among them)
 * @param admissionLimit            requests in flight (running or waiting) before new ones get a busy reply
 * @param workers                   threads running the pipeline
 * @param fusion                    how the sides' rankings are fused
 * @param vectorWeight              the vector side's weight in {@link Fusion#SCORE} fusion
 * @param cohortCap                 the most rows a cohort answer lists ({@code query.cohort-cap})
 * @param denseFeedback             a second vector search moved towards the first fused rows ({@link DenseFeedback});
 *                                  {@link DenseFeedback#OFF} by default (measured by {@code eval} mode
 *                                  {@code hybrid+feedback}, docs/EVALUATION.md)
 * @param lexicalFeedback           a second lexical search expanded with the first fused rows' terms
 *                                  ({@link LexicalFeedback}); {@link LexicalFeedback#OFF} by default (measured by
 *                                  {@code eval} mode {@code hybrid+rm3}, docs/EVALUATION.md)
 * @param sentenceVectors           a question of several sentences also searched by its sentences' embeddings
 *                                  ({@link SentenceVectors}; {@code query.sentence-vectors}); {@link SentenceVectors#CLAUSES}
 *                                  by default (docs/EVALUATION.md, session 12), the other rules measured by {@code eval}
 *                                  modes {@code hybrid+sentences-*} and {@code hybrid+questions-max} (session 11)
 * @param termWeights               the lexical query's words weighted by the embedding model ({@link QuestionTermWeights};
 *                                  {@code query.term-weights}); {@link QuestionTermWeights#EMBEDDING} in {@link #defaults}
 *                                  and the configuration (docs/EVALUATION.md, session 21)
 */
public record QuerySettings(int perSide, int rrfK, double biEncoderGateThreshold, double crossEncoderGateThreshold,
                            int maxPassageChars, int maxQuestionChars, int maxTopK, int admissionLimit, int workers,
                            Fusion fusion, double vectorWeight, int cohortCap, DenseFeedback denseFeedback,
                            LexicalFeedback lexicalFeedback, SentenceVectors sentenceVectors, QuestionTermWeights termWeights) {

    public QuerySettings {
        Objects.requireNonNull(termWeights, "termWeights");
        Objects.requireNonNull(denseFeedback, "denseFeedback");
        Objects.requireNonNull(lexicalFeedback, "lexicalFeedback");
        Objects.requireNonNull(sentenceVectors, "sentenceVectors");
    }

    /**
     * Without dense or lexical feedback, one embedding per question ({@link SentenceVectors#OFF}) and every word of the
     * lexical query at weight 1 ({@link QuestionTermWeights#OFF}).
     */
    public QuerySettings(int perSide, int rrfK, double biEncoderGateThreshold, double crossEncoderGateThreshold,
                         int maxPassageChars, int maxQuestionChars, int maxTopK, int admissionLimit, int workers,
                         Fusion fusion, double vectorWeight, int cohortCap) {
        this(perSide, rrfK, biEncoderGateThreshold, crossEncoderGateThreshold, maxPassageChars, maxQuestionChars, maxTopK,
                admissionLimit, workers, fusion, vectorWeight, cohortCap, DenseFeedback.OFF, LexicalFeedback.OFF,
                SentenceVectors.OFF, QuestionTermWeights.OFF);
    }

    public QuerySettings withDenseFeedback(DenseFeedback feedback) {
        return new QuerySettings(perSide, rrfK, biEncoderGateThreshold, crossEncoderGateThreshold, maxPassageChars,
                maxQuestionChars, maxTopK, admissionLimit, workers, fusion, vectorWeight, cohortCap, feedback, lexicalFeedback,
                sentenceVectors, termWeights);
    }

    public QuerySettings withLexicalFeedback(LexicalFeedback feedback) {
        return new QuerySettings(perSide, rrfK, biEncoderGateThreshold, crossEncoderGateThreshold, maxPassageChars,
                maxQuestionChars, maxTopK, admissionLimit, workers, fusion, vectorWeight, cohortCap, denseFeedback, feedback,
                sentenceVectors, termWeights);
    }

    public QuerySettings withSentenceVectors(SentenceVectors vectors) {
        return new QuerySettings(perSide, rrfK, biEncoderGateThreshold, crossEncoderGateThreshold, maxPassageChars,
                maxQuestionChars, maxTopK, admissionLimit, workers, fusion, vectorWeight, cohortCap, denseFeedback,
                lexicalFeedback, vectors, termWeights);
    }

    public QuerySettings withTermWeights(QuestionTermWeights weights) {
        return new QuerySettings(perSide, rrfK, biEncoderGateThreshold, crossEncoderGateThreshold, maxPassageChars,
                maxQuestionChars, maxTopK, admissionLimit, workers, fusion, vectorWeight, cohortCap, denseFeedback,
                lexicalFeedback, sentenceVectors, weights);
    }

    /**
     * {@code RRF}: reciprocal rank fusion (k = {@code rrfK}), ranks only. {@code SCORE}: min-max normalised scores,
     * weighted by {@code vectorWeight}; keeps how far ahead an exact lexical match is, which ranks alone lose.
     * {@code ADAPTIVE}: the same with the weight chosen per query from the two lists ({@code AdaptiveFusion};
     * docs/EVALUATION.md).
     */
    public enum Fusion { RRF, SCORE, ADAPTIVE }

    /** The documented maximum of a request's top_k: the rerank prefix's ceiling (DESIGN.md §5). */
    public static final int MAX_TOP_K = 30;

    public static QuerySettings defaults() {
        return new QuerySettings(50, 60, 0.43, ScopedEvidenceGate.DEFAULT_CROSS_ENCODER_THRESHOLD, 600, 4000, MAX_TOP_K, 32, 2,
                Fusion.ADAPTIVE, NormalizedScoreFusion.DEFAULT_VECTOR_WEIGHT, CohortStage.DEFAULT_CAP)
                .withSentenceVectors(SentenceVectors.CLAUSES).withTermWeights(QuestionTermWeights.EMBEDDING);
    }

    /** The gate for the scorer actually in use: thresholds live on the scorer's own scale. */
    public ScopedEvidenceGate gateFor(String scorer) {
        return new ScopedEvidenceGate(scorer, Reranker.CROSS_ENCODER_SIGMOID.equals(scorer)
                ? crossEncoderGateThreshold : biEncoderGateThreshold);
    }
}
