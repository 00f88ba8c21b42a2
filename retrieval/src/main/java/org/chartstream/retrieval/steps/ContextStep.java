package org.chartstream.retrieval.steps;

import java.util.List;
import org.chartstream.retrieval.context.ContextBuilder;
import org.chartstream.retrieval.context.ContextPassage;
import org.chartstream.retrieval.generate.Passage;

/** The kept candidates within the context budget, with parent-row expansion ({@link ContextBuilder}). */
public record ContextStep(ContextBuilder context) implements QueryStep {
    @Override
    public String name() { return "context"; }

    @Override
    public Next run(QueryRun run) {
        List<ContextPassage> built = context.build(run.kept(), run.topK());
        run.context(built, built.stream().map(p -> new Passage(p.index(), p.anchor(), p.score(), p.text())).toList());
        return Next.CONTINUE;
    }
}
