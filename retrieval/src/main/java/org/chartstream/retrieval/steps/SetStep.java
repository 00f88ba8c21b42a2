package org.chartstream.retrieval.steps;

import java.util.List;
import org.chartstream.retrieval.plan.SetAnswer;
import org.chartstream.retrieval.plan.SetDecision;
import org.chartstream.retrieval.plan.WholeSets;

/**
 * A question over a whole set (which patients, how many, the values of a field, the most frequent, the latest, a
 * patient's or admission's full list, a follow-up about a previous set's patients) is planned and answered exactly on
 * the index's row sets ({@link WholeSets}), and nothing else runs; a set question whose part cannot be resolved is
 * refused naming it. Any other question goes on untimed; a follow-up over a set the plan cannot read stops with the
 * scope's clarification (which patient?).
 *
 * @param sets the whole-set planner and executor, or null when none is configured
 */
public record SetStep(WholeSets sets) implements QueryStep {

    @Override
    public String name() {
        return "set";
    }

    @Override
    public Next run(QueryRun run) {
        List<String> setPatients = run.scope().setPatients();
        if (sets == null) {
            return setPatients.isEmpty() ? Next.CONTINUE_UNTIMED : Next.STOP;
        }
        SetDecision decision = sets.plan(run.question(), run.filter(), run.scope().patientNumbers(), setPatients);
        switch (decision) {
            case SetDecision.NotASet notASet -> {
                return setPatients.isEmpty() ? Next.CONTINUE_UNTIMED : Next.STOP;
            }
            case SetDecision.Refused refused -> run.set(SetAnswer.refused(refused.reason()));
            case SetDecision.Planned planned -> {
                SetAnswer answer = sets.execute(planned.plan());
                run.set(answer);
                if (!answer.isRefusal()) {
                    run.listener().onCitations(answer.passages());
                }
            }
        }
        return Next.STOP;
    }
}
