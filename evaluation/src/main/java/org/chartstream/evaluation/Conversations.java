package org.chartstream.evaluation;

import java.util.List;
import org.chartstream.query.memory.RememberedPatients;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;

/** The conversation after one turn, as the query topology's memory gives it to the next turn. */
public final class Conversations {
    private Conversations() {
    }

    public static ConversationHistory after(QueryPipeline.Result turn, String question) {
        return new ConversationHistory("", List.of(turn(turn, question)));
    }

    /** The turn as the query topology's memory keeps it ({@link RememberedPatients}). */
    public static RecentTurn turn(QueryPipeline.Result turn, String question) {
        RememberedPatients patients = RememberedPatients.of(turn);
        return new RecentTurn(question, turn.answer().text(), patients.keys(), patients.wholeSet());
    }
}
