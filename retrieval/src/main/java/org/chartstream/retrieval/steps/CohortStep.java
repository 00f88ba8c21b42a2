package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.cohort.CohortAnswer;
import org.chartstream.retrieval.cohort.CohortPlan;
import org.chartstream.retrieval.cohort.CohortStage;

/**
 * A cohort question (every patient or record holding one exact code, drug or condition) is answered by exact term
 * lookup ({@link CohortStage}), its rows cited at once, and nothing else runs; any other question goes on untimed.
 */
public record CohortStep(CohortStage cohort, Settings settings) implements QueryStep {
    /** @param maxPassageChars longest passage quoted in the cohort answer */
    public record Settings(int maxPassageChars) {
    }

    @Override
    public String name() { return "cohort"; }

    @Override
    public Next run(QueryRun run) {
        CohortPlan plan = cohort.plan(run.question(), run.filter(), run.scope().patientNumbers());
        if (plan instanceof CohortPlan.Ranked) {
            run.cohort(plan, null);
            return Next.CONTINUE_UNTIMED;
        }
        CohortAnswer answer = null;
        if (plan instanceof CohortPlan.Listed listed) {
            answer = CohortAnswer.of(listed.cohort(), settings.maxPassageChars());
            run.listener().onCitations(answer.passages());
        }
        run.cohort(plan, answer);
        return Next.STOP;
    }
}
