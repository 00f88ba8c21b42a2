package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.generate.Generator;

/** The citations sent, then the grounded answer (or the extractive one) generated over the context ({@link Generator}). */
public record GenerateStep(Generator generator) implements QueryStep {
    @Override
    public String name() { return "generate"; }

    @Override
    public Next run(QueryRun run) {
        run.listener().onCitations(run.passages());
        run.generation(generator.generate(run.rewrite().primary(), run.context(), run.listener()::onToken));
        return Next.CONTINUE;
    }
}
