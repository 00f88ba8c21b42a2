package org.chartstream.retrieval.context;

/**
 * How much record text goes to the generation model, in model tokens.
 *
 * @param maxPassages     most passages (6 by default: docs/ARCHITECTURE.md, "Query-side defaults")
 * @param perRowTokens    most tokens of one row, sibling chunks included
 * @param totalTokens     most tokens of all passages together
 * @param minUsefulTokens a passage is only added while at least this much of the total is left
 */
public record ContextBudget(int maxPassages, int perRowTokens, int totalTokens, int minUsefulTokens) {

    public ContextBudget {
        if (maxPassages < 1 || perRowTokens < 1 || totalTokens < 1 || minUsefulTokens < 1) {
            throw new IllegalArgumentException("context budget values must be positive: " + maxPassages + ", "
                    + perRowTokens + ", " + totalTokens + ", " + minUsefulTokens);
        }
    }

    /**
     * The budget for a request that wants {@code passages} passages (its top_k): the total stays, and each row's share
     * shrinks to {@code totalTokens / passages} when that is less than {@code perRowTokens}, so all of them fit.
     */
    public ContextBudget forPassages(int passages) {
        if (passages < 1) {
            throw new IllegalArgumentException("passages must be positive, was " + passages);
        }
        return new ContextBudget(passages, Math.max(minUsefulTokens, Math.min(perRowTokens, totalTokens / passages)), totalTokens, minUsefulTokens);
    }

    /** 6 passages, 512 tokens per row, 2,400 in total, no passage squeezed below 32 tokens. */
    public static ContextBudget defaults() {
        return new ContextBudget(6, 512, 2400, 32);
    }
}
