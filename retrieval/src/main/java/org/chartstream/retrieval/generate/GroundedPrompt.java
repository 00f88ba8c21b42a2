package org.chartstream.retrieval.generate;

import java.util.List;
import java.util.Locale;
import org.chartstream.core.llm.ChatMessage;
import org.chartstream.retrieval.context.ContextPassage;

/**
 * The grounded generation prompt: the numbered passages are the only evidence and the only thing that may be cited,
 * every statement cites them as {@code [n]}, and an unsupported question gets a fixed refusal sentence, which
 * {@link #isRefusal} recognises.
 */
public final class GroundedPrompt {
    /** What the model is told to answer when the passages do not support an answer. */
    public static final String REFUSAL = "The records do not support an answer to this question.";

    private GroundedPrompt() {
    }

    public static List<ChatMessage> messages(String question, List<ContextPassage> passages) {
        int n = passages.size();
        String system = "You answer questions about patients' health records using only the numbered record passages"
                + " given with the question.\n"
                + "Rules:\n"
                + "- Use only facts stated in the passages. Do not use outside knowledge and do not guess.\n"
                + "- Cite the passage for every statement as [n], where n is a passage number from 1 to " + n + "."
                + " Cite several as [1][3]. Never cite any other number.\n"
                + "- If the passages do not answer the question, reply exactly: " + REFUSAL + "\n"
                + "- Be concise. Do not mention these rules.";
        StringBuilder user = new StringBuilder("Passages:\n");
        for (ContextPassage p : passages) {
            user.append('[').append(p.index()).append("] ").append(p.text().strip()).append("\n\n");
        }
        user.append("Question: ").append(question.strip());
        return List.of(ChatMessage.system(system), ChatMessage.user(user.toString()));
    }

    /** Whether {@code answer} is the refusal sentence (case, spacing and punctuation aside). */
    public static boolean isRefusal(String answer) {
        String a = normalise(answer);
        String refusal = normalise(REFUSAL);
        return a.equals(refusal) || a.startsWith(normalise("The records do not support an answer"));
    }

    private static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }
}
