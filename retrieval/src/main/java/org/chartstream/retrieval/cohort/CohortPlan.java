package org.chartstream.retrieval.cohort;

/** What the cohort step decided for a question, before any ranked search. */
public sealed interface CohortPlan {

    /** Not a cohort question (or no exact-term lookup): the ranked path answers it. */
    record Ranked() implements CohortPlan {
    }

    /** A cohort question whose anchor no record (within the request's filter) holds: refused like an absent code. */
    record Refused(String reason) implements CohortPlan {
    }

    /** A cohort question answered by listing every row holding its anchor. */
    record Listed(Cohort cohort) implements CohortPlan {
    }
}
