package org.chartstream.retrieval;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.retrieval.cohort.CohortAnswer;
import org.chartstream.retrieval.cohort.CohortPlan;
import org.chartstream.retrieval.cohort.CohortQuestion;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.generate.GenerationResult;
import org.chartstream.retrieval.plan.SetAnswer;
import org.chartstream.retrieval.steps.QueryRun;

/**
 * A finished {@link QueryRun} as the pipeline's result: a clarification, a refusal of a patient the index does not
 * hold, a cohort's answer or the ranked path's.
 */
final class RunResults {
    private RunResults() {
    }

    /** @param generator the name of the generator in use (for runs that generated nothing) */
    static QueryPipeline.Result of(QueryRun run, Map<String, Long> stageMs, String generator) {
        PatientScope scope = run.scope().scope();
        if (run.set() != null) {
            // the trace's reason is logged: it names no word of the question (the refusal's text, in the reply, does)
            return new QueryPipeline.Result(setAnswer(run.set()), new RetrievalTrace.Cohort(!run.set().isRefusal(),
                    run.set().isRefusal() ? "a whole-set question with a part no bound table, concept or admission resolves"
                            : "every listed row is of the question's exact set"), scope, stageMs);
        }
        if (run.scope().clarify()) {
            Answer answer = new Answer(Outcome.CLARIFY, run.scope().clarification(), false, List.of(), generator, List.of(),
                    Optional.empty());
            return new QueryPipeline.Result(answer, new RetrievalTrace.Clarified(run.question(), scope.describe()), scope, stageMs);
        }
        if (run.scope().refused()) {
            Answer answer = new Answer(Outcome.REFUSED, refusal(run.scope().clarification()), false, List.of(), generator,
                    List.of(), Optional.empty());
            return new QueryPipeline.Result(answer, new RetrievalTrace.UnknownPatient(run.question()), scope, stageMs);
        }
        if (!(run.cohort() instanceof CohortPlan.Ranked)) {
            return new QueryPipeline.Result(cohortAnswer(run), cohortTrace(run.cohort()), scope, stageMs);
        }
        RetrievalTrace.Ranked trace = new RetrievalTrace.Ranked(run.variants(), run.rewrite().reason(), run.sides(), run.fused(),
                run.reranked(), run.gate());
        return new QueryPipeline.Result(rankedAnswer(run, generator), trace, scope, stageMs);
    }

    private static Answer cohortAnswer(QueryRun run) {
        String name = RetrievalTrace.Cohort.LOOKUP;
        if (run.cohort() instanceof CohortPlan.Refused refused) {
            return new Answer(Outcome.REFUSED, refusal(refused.reason()), false, List.of(), name, List.of(), Optional.empty());
        }
        CohortAnswer answer = run.cohortAnswer();
        return new Answer(Outcome.ANSWER, answer.text(), true, answer.passages(), name, List.of(),
                Optional.of(((CohortPlan.Listed) run.cohort()).cohort().completeness()));
    }

    private static Answer setAnswer(SetAnswer set) {
        String name = RetrievalTrace.Cohort.SET_PLAN;
        if (set.isRefusal()) {
            return new Answer(Outcome.REFUSED, refusal(set.refusal()), false, List.of(), name, List.of(), Optional.empty());
        }
        return new Answer(Outcome.ANSWER, set.text(), true, set.passages(), name, List.of(), Optional.of(set.completeness()),
                Optional.of(set.set()));
    }

    private static RetrievalTrace.Cohort cohortTrace(CohortPlan plan) {
        return plan instanceof CohortPlan.Refused refused ? new RetrievalTrace.Cohort(false, refused.reason())
                : new RetrievalTrace.Cohort(true, "every listed row holds the question's anchor");
    }

    private static Answer rankedAnswer(QueryRun run, String generatorInUse) {
        GenerationResult generation = run.generation();
        if (generation == null) {
            return new Answer(Outcome.REFUSED, refusal(run.gate().reason()), false, List.of(), generatorInUse, List.of(),
                    Optional.empty());
        }
        Outcome outcome = switch (generation.outcome()) {
            case ANSWERED, EXTRACTIVE -> Outcome.ANSWER;
            case REFUSED -> Outcome.REFUSED;
            case UNAVAILABLE -> Outcome.UNAVAILABLE;
        };
        String text = generation.answer();
        Optional<Completeness> completeness = Optional.empty();
        if (outcome == Outcome.ANSWER) {
            completeness = Optional.of(rankedCompleteness(run.question()));
            // said in the final reply's text, after any streamed tokens
            text += "\n\n(" + completeness.get().reason() + ".)";
        } else if (outcome == Outcome.UNAVAILABLE) {
            text = "The local generation model is unavailable (" + generation.detail() + "); no answer was generated.";
        }
        return new Answer(outcome, text, generation.outcome() == GenerationResult.Outcome.EXTRACTIVE,
                outcome == Outcome.REFUSED ? List.of() : run.passages(), generation.generator(),
                generation.citations().outOfRange(), completeness);
    }

    private static String refusal(String reason) {
        return "No answer: the indexed records do not support an answer to this question (" + reason + ").";
    }

    /**
     * A ranked answer lists the most relevant records; when the question asked for every matching record but named
     * no exact anchor (no code, drug or condition word, nor a patient), it is partial for that reason.
     */
    private static Completeness rankedCompleteness(String question) {
        return CohortQuestion.asksForAll(question) && QuestionAnchors.of(question).isEmpty()
                ? new Completeness(Completeness.Kind.PARTIAL, "the question asks for every matching record but names no"
                        + " exact code, drug or condition the index holds: these are the most relevant records by similarity,"
                        + " not necessarily all", null)
                : Completeness.MOST_RELEVANT;
    }
}
