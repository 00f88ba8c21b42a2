package org.chartstream.retrieval.steps;

/**
 * One stage of the query pipeline over a run's {@link QueryRun}: reads what the stages before it left there and adds
 * its own part. The pipeline checks the request's deadline before each step and times it under {@link #name()}.
 */
public interface QueryStep {

    /** What the pipeline does after a step. */
    enum Next {
        /** Go on with the next step. */
        CONTINUE,
        /** Go on; the step had nothing to do for this question, so it gets no timing of its own (its time counts to the next). */
        CONTINUE_UNTIMED,
        /** The run is decided: no further step runs. */
        STOP
    }

    /** The stage's name in the run's stage timings (the audit, metrics and the evaluation read them). */
    String name();

    Next run(QueryRun run);
}
