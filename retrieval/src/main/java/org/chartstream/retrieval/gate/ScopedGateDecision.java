package org.chartstream.retrieval.gate;

import java.util.Locale;

/**
 * The gate's verdict with everything that decided it.
 *
 * @param answer     whether to answer
 * @param scope      pointed or broad
 * @param scopeRule  the classifier rule that made the question broad ("none" for pointed)
 * @param scorer     the scale of {@code bestScore} and {@code threshold}
 * @param bestScore  the best passage score ({@link Double#NEGATIVE_INFINITY} with no passage)
 * @param threshold  the pointed-question threshold for this scorer
 * @param passages   passages that reached the gate
 * @param reason     why, in words
 */
public record ScopedGateDecision(boolean answer, QuestionScope scope, String scopeRule, String scorer, double bestScore,
                                 double threshold, int passages, String reason) {

    /** For the audit: {@code answer (pointed, cross-encoder-sigmoid best=0.812 threshold=0.300, 4 passages: …)}. */
    public String describe() {
        return (answer ? "answer" : "refuse") + " (" + scope.name().toLowerCase(Locale.ROOT)
                + (scope == QuestionScope.BROAD ? " by rule '" + scopeRule + "'" : "") + ", " + scorer + " best="
                + (passages == 0 ? "-" : String.format(Locale.ROOT, "%.3f", bestScore))
                + String.format(Locale.ROOT, " threshold=%.3f", threshold) + ", " + passages
                + (passages == 1 ? " passage: " : " passages: ") + reason + ")";
    }

    /** The same verdict as the existing audit record type. */
    public GateDecision toGateDecision() {
        return new GateDecision(answer, scorer, passages == 0 ? 0 : bestScore, threshold, reason);
    }
}
