package org.chartstream.retrieval.rewrite;

import java.util.List;
import org.chartstream.core.llm.ChatMessage;

/** The one chat call that rewrites a question into a standalone query and, when wanted, its expansions. */
final class RewritePrompt {
    private RewritePrompt() {
    }

    static List<ChatMessage> messages(String question, ConversationHistory history, int alternatives, RewriteSettings settings) {
        StringBuilder system = new StringBuilder()
                .append("You rewrite questions for a search engine over clinical records. You never answer them.\n")
                .append("Reply with one JSON object and nothing else: {\"standalone\": \"...\", \"alternatives\": [")
                .append(alternatives == 0 ? "" : "\"...\"").append("]}\n")
                .append("- standalone: the latest question rewritten so it can be understood without the conversation:"
                        + " replace pronouns and references (\"she\", \"that drug\", \"the last visit\") with what they"
                        + " refer to. Keep every name, number, code and quoted phrase exactly as written. Add no facts."
                        + " If the question already stands alone, repeat it unchanged.\n");
        if (alternatives == 0) {
            system.append("- alternatives: always an empty list.\n");
        } else {
            system.append("- alternatives: exactly ").append(alternatives).append(alternatives == 1 ? " other phrasing" : " other phrasings")
                    .append(" of the standalone question for the same information need, using different words"
                            + " (clinical terms for lay terms and the other way round). Keep names, numbers and codes.\n");
        }
        StringBuilder user = new StringBuilder();
        if (!history.summary().isEmpty()) {
            user.append("Conversation summary:\n").append(clip(history.summary(), settings.maxTurnChars() * 2)).append("\n\n");
        }
        List<RecentTurn> turns = history.lastTurns(settings.maxTurns());
        if (!turns.isEmpty()) {
            user.append("Recent turns, oldest first:\n");
            for (RecentTurn turn : turns) {
                user.append("User: ").append(clip(turn.question(), settings.maxTurnChars())).append('\n');
                if (!turn.answer().isEmpty()) {
                    user.append("Assistant: ").append(clip(turn.answer(), settings.maxTurnChars())).append('\n');
                }
            }
            user.append('\n');
        }
        user.append("Latest question: ").append(question);
        return List.of(ChatMessage.system(system.toString()), ChatMessage.user(user.toString()));
    }

    private static String clip(String text, int maxChars) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= maxChars ? oneLine : oneLine.substring(0, maxChars) + " …";
    }
}
