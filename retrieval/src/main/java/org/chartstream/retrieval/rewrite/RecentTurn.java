package org.chartstream.retrieval.rewrite;

import java.util.Objects;

/** One earlier question of the conversation and the answer it got, verbatim. */
public record RecentTurn(String question, String answer) {
    public RecentTurn {
        Objects.requireNonNull(question, "question");
        answer = answer == null ? "" : answer;
    }

    /** Sizes only: turns are patient data. */
    @Override
    public String toString() {
        return "RecentTurn[question " + question.length() + " chars, answer " + answer.length() + " chars]";
    }
}
