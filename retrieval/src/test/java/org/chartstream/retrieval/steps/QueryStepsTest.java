package org.chartstream.retrieval.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.cohort.CohortPlan;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.scope.PatientDirectory;
import org.junit.jupiter.api.Test;

/** The pipeline's loop over its steps: deadline, step, timing; a stop ends the run. */
class QueryStepsTest {
    private final List<String> ran = new ArrayList<>();

    private QueryStep step(String name, QueryStep.Next next, java.util.function.Consumer<QueryRun> work) {
        return new QueryStep() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Next run(QueryRun run) {
                ran.add(name);
                work.accept(run);
                return next;
            }
        };
    }

    private QueryPipeline pipeline() {
        return new QueryPipeline(List.of(new ScopeStep(PatientDirectory.NONE),
                step("untimed", QueryStep.Next.CONTINUE_UNTIMED, run -> { }),
                step("refuse", QueryStep.Next.STOP, run -> run.cohort(new CohortPlan.Refused("no record holds it"), null)),
                step("after", QueryStep.Next.CONTINUE, run -> { })), "model", "generator");
    }

    @Test
    void theStepsRunInOrderUntilOneStopsAndEachStepThatWorkedIsTimedUnderItsName() {
        QueryPipeline.Result r = pipeline().run("Which patients take nothing?", SearchMode.HYBRID, 5, RetrievalFilter.NONE);

        assertThat(ran).containsExactly("untimed", "refuse");
        assertThat(r.stageMs().keySet()).containsExactly("scope", "refuse", "total");
        assertThat(r.answer().outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(r.trace()).isEqualTo(new RetrievalTrace.Cohort(false, "no record holds it"));
    }

    @Test
    void aPassedDeadlineStopsTheRunBeforeTheNextStepNamingIt() {
        assertThatThrownBy(() -> pipeline().run("q", SearchMode.HYBRID, 5, RetrievalFilter.NONE, ConversationHistory.EMPTY,
                QueryPipeline.Listener.NONE, System.currentTimeMillis() - 1))
                .isInstanceOf(QueryPipeline.DeadlinePassedException.class).hasMessageContaining("before stage scope");
        assertThat(ran).isEmpty();
    }
}
