package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.rewrite.QueryRewriter;

/** The question rewritten with the conversation's memory and expanded into query variants ({@link QueryRewriter}). */
public record RewriteStep(QueryRewriter rewriter) implements QueryStep {
    @Override
    public String name() { return "rewrite"; }

    @Override
    public Next run(QueryRun run) {
        run.rewrite(rewriter.rewrite(run.question(), run.history()));
        return Next.CONTINUE;
    }
}
