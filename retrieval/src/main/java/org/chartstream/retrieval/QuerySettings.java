package org.chartstream.retrieval;

import java.util.Objects;
import org.chartstream.retrieval.cohort.CohortStage;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.fusion.FusionSettings;
import org.chartstream.retrieval.fusion.NormalizedScoreFusion;
import org.chartstream.retrieval.gate.GateThresholds;
import org.chartstream.retrieval.gate.ScopedEvidenceGate;
import org.chartstream.retrieval.search.QuestionTermWeights;

/**
 * Query-side settings (defaults: README.md, "Configuration"; docs/ARCHITECTURE.md, "Query-side defaults"), plain values
 * each stage takes its own part of. The limits of a request on the wire (question length, top_k, workers, admission)
 * belong to the query topology, not here.
 *
 * @param perSide         candidates per search side and variant
 * @param sentenceVectors a question of several sentences also searched by its sentences' embeddings
 *                        ({@link SentenceVectors}; {@code query.sentence-vectors}); {@link SentenceVectors#CLAUSES} by
 *                        default (docs/history/EVALUATION-sessions-1-21.md, "Session 12"), the other rules measured by
 *                        {@code eval} modes {@code hybrid+sentences-*} and {@code hybrid+questions-max} (session 11)
 * @param termWeights     the lexical query's words weighted by the embedding model ({@link QuestionTermWeights};
 *                        {@code query.term-weights}); {@link QuestionTermWeights#EMBEDDING} by default
 *                        (docs/history/EVALUATION-sessions-1-21.md, "Session 21")
 * @param fusion          how the sides' rankings are fused
 * @param gate            the gate's thresholds, one per score scale
 * @param maxPassageChars longest passage quoted in an extractive answer
 * @param cohortCap       the most rows a cohort answer lists ({@code query.cohort-cap})
 */
public record QuerySettings(int perSide, SentenceVectors sentenceVectors, QuestionTermWeights termWeights,
                            FusionSettings fusion, GateThresholds gate, int maxPassageChars, int cohortCap) {

    /**
     * The documented maximum of a request's top_k: the rerank prefix's ceiling (docs/ARCHITECTURE.md, "Query-side
     * defaults").
     */
    public static final int MAX_TOP_K = 30;

    public QuerySettings {
        Objects.requireNonNull(sentenceVectors, "sentenceVectors");
        Objects.requireNonNull(termWeights, "termWeights");
        Objects.requireNonNull(fusion, "fusion");
        Objects.requireNonNull(gate, "gate");
    }

    public static QuerySettings defaults() {
        return new QuerySettings(50, SentenceVectors.CLAUSES, QuestionTermWeights.EMBEDDING,
                new FusionSettings(FusionSettings.Rule.ADAPTIVE, 60, NormalizedScoreFusion.DEFAULT_VECTOR_WEIGHT),
                new GateThresholds(0.43, ScopedEvidenceGate.DEFAULT_CROSS_ENCODER_THRESHOLD), 600, CohortStage.DEFAULT_CAP);
    }

    public QuerySettings withSentenceVectors(SentenceVectors vectors) {
        return new QuerySettings(perSide, vectors, termWeights, fusion, gate, maxPassageChars, cohortCap);
    }

    public QuerySettings withTermWeights(QuestionTermWeights weights) {
        return new QuerySettings(perSide, sentenceVectors, weights, fusion, gate, maxPassageChars, cohortCap);
    }
}
