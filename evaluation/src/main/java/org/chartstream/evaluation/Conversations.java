package org.chartstream.evaluation;

import java.util.List;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.retrieval.scope.TurnPatients;

/** The conversation after one turn, as the query topology's memory gives it to the next turn. */
public final class Conversations {
    private Conversations() {
    }

    public static ConversationHistory after(QueryPipeline.Result turn, String question) {
        return new ConversationHistory("", List.of(turn(turn, question)));
    }

    /**
     * The turn as the memory keeps it: after a complete whole-set answer over patients, the set's patient keys as a
     * whole set; otherwise the patients the turn was about ({@link TurnPatients}).
     */
    public static RecentTurn turn(QueryPipeline.Result turn, String question) {
        SetResult set = turn.answer().set().orElse(null);
        if (set != null && set.complete() && !set.patientKeys().isEmpty()) {
            return new RecentTurn(question, turn.answer().text(), set.patientKeys(), true);
        }
        return new RecentTurn(question, turn.answer().text(), TurnPatients.of(turn.scope(), turn.answer().passages()));
    }
}
