package org.chartstream.retrieval.rewrite;

import java.time.Duration;

/**
 * Rewrite and expansion settings (defaults in {@link #defaults()}, listed in docs/ARCHITECTURE.md, "Query-side
 * defaults").
 *
 * @param maxTurns       most verbatim turns sent to the model (older ones only reach it through the summary)
 * @param totalQueries   queries after expansion, the primary one included
 * @param deadline       longest the rewrite call may take before the original question is used
 * @param maxTurnChars   longest text of one earlier question or answer quoted in the prompt
 * @param maxQueryChars  longest query accepted from the model
 */
public record RewriteSettings(int maxTurns, int totalQueries, Duration deadline, int maxTurnChars, int maxQueryChars) {

    public RewriteSettings {
        if (maxTurns < 0) {
            throw new IllegalArgumentException("maxTurns must not be negative, was " + maxTurns);
        }
        if (totalQueries < 1) {
            throw new IllegalArgumentException("totalQueries must be at least 1, was " + totalQueries);
        }
        if (deadline == null || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive, was " + deadline);
        }
        if (maxTurnChars < 1 || maxQueryChars < 1) {
            throw new IllegalArgumentException("maxTurnChars and maxQueryChars must be positive");
        }
    }

    /** 8 turns, 3 queries, 10 s, 600 characters per quoted turn, 500 per query. */
    public static RewriteSettings defaults() {
        return new RewriteSettings(8, 3, Duration.ofSeconds(10), 600, 500);
    }
}
