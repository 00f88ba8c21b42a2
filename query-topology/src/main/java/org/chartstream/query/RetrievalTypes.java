package org.chartstream.query;

import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.ReplyType;

/** The one place the Avro wire types meet the retrieval module's own: requests in, outcomes out. */
public final class RetrievalTypes {
    private RetrievalTypes() {
    }

    public static SearchMode mode(org.chartstream.schemas.SearchMode wire) {
        return switch (wire) {
            case HYBRID -> SearchMode.HYBRID;
            case VECTOR -> SearchMode.VECTOR;
            case LEXICAL -> SearchMode.LEXICAL;
        };
    }

    public static ReplyType replyType(Outcome outcome) {
        return switch (outcome) {
            case ANSWER -> ReplyType.ANSWER;
            case REFUSED -> ReplyType.REFUSED;
            case UNAVAILABLE -> ReplyType.UNAVAILABLE;
        };
    }

    /** The stored conversation as the rewrite stage reads it (continuity only, never cited); empty for a first turn. */
    public static ConversationHistory history(ConversationMemory memory) {
        if (memory == null) {
            return ConversationHistory.EMPTY;
        }
        return new ConversationHistory(memory.getSummary(),
                memory.getTurns().stream().map(t -> new RecentTurn(t.getQuestion(), t.getAnswer())).toList());
    }
}
