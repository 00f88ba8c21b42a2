package org.chartstream.retrieval.plan;

/** What the set planner decided for a question. */
public sealed interface SetDecision {

    /** Not a question over a whole set (or nothing to plan it with): the other paths answer it. */
    record NotASet(String why) implements SetDecision {
    }

    /** A set question whose part could not be resolved, where answering another set would be wrong: refused, naming it. */
    record Refused(String reason) implements SetDecision {
    }

    /** A plan to execute. */
    record Planned(SetPlan plan) implements SetDecision {
    }
}
