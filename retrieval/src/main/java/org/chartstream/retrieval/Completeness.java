package org.chartstream.retrieval;

import java.util.Objects;

/**
 * How complete an answer's list of records is, said in the reply and in its text.
 *
 * @param kind   complete (every row matching the question's exact anchor), partial (cut at the cap, or similarity
 *               only where a complete list was asked for) or the most relevant records, not all
 * @param reason why, in words the reply carries
 * @param cohort set when the answer lists the rows matching an exact anchor; {@code null} otherwise
 */
public record Completeness(Kind kind, String reason, CohortSummary cohort) {

    public enum Kind {
        COMPLETE,
        PARTIAL,
        MOST_RELEVANT
    }

    /**
     * What an exact-anchor cohort answer found.
     *
     * @param anchor   the exact term every listed row matched
     * @param patients distinct patients among the listed rows
     * @param rows     rows listed
     * @param cap      the cap in force ({@code query.cohort-cap}); more matching rows are not listed
     */
    public record CohortSummary(String anchor, int patients, int rows, int cap) {
        public CohortSummary {
            Objects.requireNonNull(anchor, "anchor");
            if (patients < 0 || rows < 0 || cap < 1) {
                throw new IllegalArgumentException("patients and rows must be >= 0 and cap >= 1");
            }
        }
    }

    /** The answer of today's ranked path: the most relevant records, not necessarily all. */
    public static final Completeness MOST_RELEVANT = new Completeness(Kind.MOST_RELEVANT,
            "lists the most relevant records, not every matching one", null);

    public Completeness {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }
}
