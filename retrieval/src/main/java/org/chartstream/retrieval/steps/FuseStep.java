package org.chartstream.retrieval.steps;

import java.util.function.Function;
import org.chartstream.retrieval.dedupe.RowDedupe;
import org.chartstream.retrieval.fusion.Fusion;
import org.chartstream.retrieval.fusion.FusionSettings;

/** Row dedupe (one chunk per row and list, {@link RowDedupe}), then the sides fused by the configured rule. */
public final class FuseStep implements QueryStep {
    private final Function<String, Fusion> fusion;

    public FuseStep(FusionSettings settings) {
        this.fusion = settings.perQuestion();
    }

    @Override
    public String name() { return "fuse"; }

    @Override
    public Next run(QueryRun run) {
        RowDedupe.PerRow perRow = RowDedupe.perRow(run.sides());
        run.fused(fusion.apply(run.rewrite().primary()).fuse(perRow.vector(), perRow.lexical()));
        return Next.CONTINUE;
    }
}
