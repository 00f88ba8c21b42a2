package org.chartstream.retrieval.generate;

import java.time.Duration;

/**
 * @param temperature     sampling temperature; low, because the answer restates records
 * @param maxAnswerTokens most tokens of an answer
 * @param deadline        longest a generation may take; {@code null} for the endpoint's total deadline
 */
public record GenerationSettings(double temperature, int maxAnswerTokens, Duration deadline) {
    public GenerationSettings {
        if (temperature < 0 || temperature > 2) {
            throw new IllegalArgumentException("temperature must be within [0, 2], was " + temperature);
        }
        if (maxAnswerTokens < 1) {
            throw new IllegalArgumentException("maxAnswerTokens must be positive, was " + maxAnswerTokens);
        }
    }

    /** Temperature 0.1, 512 answer tokens, the endpoint's deadline. */
    public static GenerationSettings defaults() {
        return new GenerationSettings(0.1, 512, null);
    }
}
