package org.chartstream.retrieval.rewrite;

import java.util.List;
import java.util.Objects;

/**
 * One earlier question of the conversation and the answer it got, verbatim, with the patients the turn was about.
 *
 * @param patientKeys the patient the turn was restricted to, or else the distinct patients its answer cited (or, on a
 *                    clarification, the candidates it listed); empty when it was about no patient
 * @param wholeSet    the turn was a whole-set answer and {@code patientKeys} is its whole set of patients (not only
 *                    those cited): a follow-up about "they" is scoped to exactly that set
 */
public record RecentTurn(String question, String answer, List<String> patientKeys, boolean wholeSet) {
    public RecentTurn {
        Objects.requireNonNull(question, "question");
        answer = answer == null ? "" : answer;
        patientKeys = patientKeys == null ? List.of() : List.copyOf(patientKeys);
    }

    /** A turn that was not a whole-set answer. */
    public RecentTurn(String question, String answer, List<String> patientKeys) {
        this(question, answer, patientKeys, false);
    }

    /** A turn about no patient. */
    public RecentTurn(String question, String answer) {
        this(question, answer, List.of());
    }

    /** Sizes only: turns are patient data. */
    @Override
    public String toString() {
        return "RecentTurn[question " + question.length() + " chars, answer " + answer.length() + " chars, "
                + patientKeys.size() + " patients]";
    }
}
