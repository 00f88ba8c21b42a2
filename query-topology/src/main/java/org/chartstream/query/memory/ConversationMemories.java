package org.chartstream.query.memory;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.ConversationTurn;

/**
 * Rolling conversation memory: the last {@code maxTurns} turns verbatim, older turns folded into a bounded summary.
 * Memory gives continuity only; it is never cited.
 */
public final class ConversationMemories {
    public static final int DEFAULT_MAX_TURNS = 8;
    static final int MAX_SUMMARY_CHARS = 2000;
    static final int MAX_STORED_ANSWER_CHARS = 600;

    private ConversationMemories() {
    }

    public static ConversationMemory empty(String conversationId, String userId) {
        return ConversationMemory.newBuilder().setConversationId(conversationId).setUserId(userId)
                .setSummary("").setTurns(new ArrayList<>()).setUpdatedTsMs(0).build();
    }

    /** True when the memory exists and belongs to another user: the request must not see it. */
    public static boolean ownedByAnother(ConversationMemory memory, String userId) {
        return memory != null && !memory.getUserId().equals(userId);
    }

    /** A turn about no patient. */
    public static ConversationMemory append(ConversationMemory memory, String question, String answer, long now, int maxTurns) {
        return append(memory, question, answer, List.of(), now, maxTurns);
    }

    /** A turn that was not a whole-set answer, about {@code patientKeys} ({@code TurnPatients}). */
    public static ConversationMemory append(ConversationMemory memory, String question, String answer,
                                            List<String> patientKeys, long now, int maxTurns) {
        return append(memory, question, answer, new RememberedPatients(patientKeys, false), now, maxTurns);
    }

    /**
     * @param patients the patients the turn was about, which a follow-up inherits (or, a whole set, is scoped to)
     */
    public static ConversationMemory append(ConversationMemory memory, String question, String answer,
                                            RememberedPatients patients, long now, int maxTurns) {
        List<ConversationTurn> turns = new ArrayList<>(memory.getTurns());
        turns.add(new ConversationTurn(question, truncate(answer, MAX_STORED_ANSWER_CHARS), now, patients.keys(),
                patients.wholeSet()));
        StringBuilder summary = new StringBuilder(memory.getSummary());
        while (turns.size() > maxTurns) {
            ConversationTurn oldest = turns.remove(0);
            if (summary.length() > 0) {
                summary.append(' ');
            }
            summary.append("Earlier the user asked: ").append(oldest.getQuestion().strip());
        }
        String folded = summary.length() > MAX_SUMMARY_CHARS
                ? summary.substring(summary.length() - MAX_SUMMARY_CHARS) : summary.toString();
        return ConversationMemory.newBuilder(memory).setTurns(turns).setSummary(folded).setUpdatedTsMs(now).build();
    }

    private static String truncate(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max);
    }
}
