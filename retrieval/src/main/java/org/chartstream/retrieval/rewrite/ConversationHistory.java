package org.chartstream.retrieval.rewrite;

import java.util.List;

/**
 * What the conversation memory hands the rewrite: a rolling summary of older turns and the most recent turns
 * verbatim, oldest first. It gives continuity only; nothing in it is citable.
 *
 * @param summary     summary of the turns before {@code recentTurns}; empty when there is none
 * @param recentTurns the verbatim tail, oldest first
 */
public record ConversationHistory(String summary, List<RecentTurn> recentTurns) {

    public static final ConversationHistory EMPTY = new ConversationHistory("", List.of());

    public ConversationHistory {
        summary = summary == null ? "" : summary.strip();
        recentTurns = recentTurns == null ? List.of() : List.copyOf(recentTurns);
    }

    public boolean isEmpty() {
        return summary.isEmpty() && recentTurns.isEmpty();
    }

    /** The last {@code maxTurns} turns, oldest first. */
    public List<RecentTurn> lastTurns(int maxTurns) {
        return recentTurns.subList(Math.max(0, recentTurns.size() - maxTurns), recentTurns.size());
    }

    /** Sizes only. */
    @Override
    public String toString() {
        return "ConversationHistory[summary " + summary.length() + " chars, " + recentTurns.size() + " turns]";
    }
}
