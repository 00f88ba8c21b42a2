package org.chartstream.evaluation;

import java.util.List;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.retrieval.scope.TurnPatients;

/** The conversation after one turn, as the query topology's memory gives it to the next turn. */
public final class Conversations {
    private Conversations() {
    }

    public static ConversationHistory after(QueryPipeline.Result turn, String question) {
        return new ConversationHistory("", List.of(new RecentTurn(question, turn.answer().text(), TurnPatients.of(turn.scope(), turn.answer().passages()))));
    }
}
