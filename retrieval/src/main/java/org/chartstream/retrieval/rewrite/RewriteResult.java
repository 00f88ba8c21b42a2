package org.chartstream.retrieval.rewrite;

import java.util.List;
import java.util.Objects;

/**
 * The search queries for one question.
 *
 * @param original  the question as asked
 * @param queries   the queries to search with, the primary one first: the standalone rewrite (or the original
 *                  question), then any expansions; never empty, at most the configured total
 * @param rewritten whether the primary query differs from the original question
 * @param expanded  whether expansions were added
 * @param reason    what was done and why, for the audit (never contains question text)
 */
public record RewriteResult(String original, List<String> queries, boolean rewritten, boolean expanded, String reason) {

    public RewriteResult {
        Objects.requireNonNull(original, "original");
        queries = List.copyOf(queries);
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("a rewrite result needs at least the primary query");
        }
        Objects.requireNonNull(reason, "reason");
    }

    /** The question as asked, alone. */
    public static RewriteResult unchanged(String question, String reason) {
        return new RewriteResult(question, List.of(question), false, false, reason);
    }

    /** The query the answer is generated for and the reranker scores against. */
    public String primary() {
        return queries.get(0);
    }

    /** Counts and the reason only. */
    @Override
    public String toString() {
        return "RewriteResult[" + queries.size() + " queries, rewritten=" + rewritten + ", expanded=" + expanded + ": "
                + reason + "]";
    }
}
