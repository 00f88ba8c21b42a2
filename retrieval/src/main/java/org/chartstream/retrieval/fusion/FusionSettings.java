package org.chartstream.retrieval.fusion;

import java.util.Objects;
import java.util.function.Function;

/**
 * How the sides' rankings are fused ({@code query.fusion}, {@code query.rrf-k}, {@code query.vector-weight}).
 *
 * @param rule         which fusion
 * @param rrfK         reciprocal rank fusion constant ({@link Rule#RRF})
 * @param vectorWeight the vector side's weight in {@link Rule#SCORE} fusion
 */
public record FusionSettings(Rule rule, int rrfK, double vectorWeight) {

    /**
     * {@code ADAPTIVE} (the default): min-max normalised scores with the vector side's weight chosen per query from the
     * two lists ({@link AdaptiveFusion}; docs/EVALUATION.md, "Tuned constants and the sets they were tuned on").
     * {@code SCORE}: the same weighted by the fixed {@code vectorWeight}; keeps how far ahead an exact lexical match
     * is, which ranks alone lose. {@code RRF}: reciprocal rank fusion (k = {@code rrfK}), ranks only.
     */
    public enum Rule { ADAPTIVE, SCORE, RRF }

    public FusionSettings {
        Objects.requireNonNull(rule, "rule");
    }

    /** The fusion of each question, chosen once by the rule. */
    public Function<String, Fusion> perQuestion() {
        return switch (rule) {
            case ADAPTIVE -> Fusion::adaptive;
            case RRF -> question -> Fusion.reciprocalRank(rrfK);
            case SCORE -> question -> Fusion.normalisedScore(vectorWeight);
        };
    }
}
