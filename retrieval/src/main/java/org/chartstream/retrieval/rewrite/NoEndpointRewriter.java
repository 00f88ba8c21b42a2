package org.chartstream.retrieval.rewrite;

import java.util.Objects;

/** The rewriter when no LLM endpoint is configured: the question is searched as asked, and the audit says why. */
public final class NoEndpointRewriter implements QueryRewriter {
    public static final String REASON = "no LLM endpoint configured: question searched as asked, without rewrite or expansion";

    @Override
    public RewriteResult rewrite(String question, ConversationHistory history) {
        return RewriteResult.unchanged(Objects.requireNonNull(question, "question"), REASON);
    }
}
