package org.chartstream.retrieval.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Splits a question into its sentences, for the query-side multi-vector rule ({@link SentenceVectors}). A sentence
 * ends at {@code ?} or {@code !}, or at {@code .} after a word of at least {@link #MIN_WORD_BEFORE_PERIOD} letters
 * (so "5 mg. Zolmitriptan" or "Dr. Smith" do not split), when whitespace follows. A fragment without a letter
 * ("?!", "2.") joins the sentence before it. At most {@link #MAX_SENTENCES} sentences are returned: the rest of a long
 * message joins the last one (a bound on the extra embeddings per request, not tuned on any data set).
 */
public final class QuestionSentences {
    /** Shortest word before a period that ends a sentence: abbreviations like "mg", "Dr", "vs" are shorter. */
    public static final int MIN_WORD_BEFORE_PERIOD = 3;
    /** Most sentences a question is split into (latency bound). */
    public static final int MAX_SENTENCES = 6;

    /**
     * English words that open a question: the wh-words and the auxiliaries of a yes/no question (a closed word class,
     * not tuned on any data set).
     */
    private static final Set<String> QUESTION_OPENERS = Set.of("what", "which", "who", "whom", "whose", "when", "where",
            "why", "how", "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "will", "would", "should",
            "shall", "may", "might", "must", "has", "have", "had");

    /**
     * "and" or "or" (after an optional comma) before a word that opens a question: where a sentence of two questions
     * ("What is hepatitis and how is it transmitted?") starts its second.
     */
    private static final Pattern CLAUSE_BREAK = Pattern.compile(
            ",?\\s+(?:and|or)\\s+(?=(?:" + String.join("|", new TreeSet<>(QUESTION_OPENERS)) + ")\\b)",
            Pattern.CASE_INSENSITIVE);

    private QuestionSentences() {
    }

    /**
     * The question's sentences ({@link #of}), each split further into its clauses where "and" or "or" opens another
     * question (a wh-word or an auxiliary follows: the same closed word class as {@link #asks}); at most
     * {@link #MAX_SENTENCES} parts, the rest joining the last.
     */
    public static List<String> clauses(String question) {
        List<String> out = new ArrayList<>();
        for (String sentence : of(question)) {
            for (String clause : CLAUSE_BREAK.split(sentence)) {
                add(out, clause);
            }
        }
        return bounded(out);
    }

    /** Whether the sentence asks: it ends with a question mark, or its first word opens a question ("What kind … see."). */
    public static boolean asks(String sentence) {
        String s = sentence.strip();
        if (s.endsWith("?")) {
            return true;
        }
        int end = 0;
        while (end < s.length() && Character.isLetter(s.charAt(end))) {
            end++;
        }
        return QUESTION_OPENERS.contains(s.substring(0, end).toLowerCase(Locale.ROOT));
    }

    /** The question's sentences in order, each stripped; one element (the stripped question) when it has one. */
    public static List<String> of(String question) {
        String text = question == null ? "" : question.strip();
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean followedBySpace = i + 1 < text.length() && Character.isWhitespace(text.charAt(i + 1));
            if (followedBySpace && (c == '?' || c == '!' || (c == '.' && wordBefore(text, i) >= MIN_WORD_BEFORE_PERIOD))) {
                add(out, text.substring(start, i + 1));
                start = i + 1;
            }
        }
        add(out, text.substring(start));
        if (out.isEmpty()) {
            return List.of(text);
        }
        return bounded(out);
    }

    private static List<String> bounded(List<String> out) {
        while (out.size() > MAX_SENTENCES) {
            String last = out.remove(out.size() - 1);
            out.set(out.size() - 1, out.get(out.size() - 1) + " " + last);
        }
        return List.copyOf(out);
    }

    /** Letters of the word ending just before position {@code period}. */
    private static int wordBefore(String text, int period) {
        int n = 0;
        for (int j = period - 1; j >= 0 && Character.isLetter(text.charAt(j)); j--) {
            n++;
        }
        return n;
    }

    private static void add(List<String> out, String fragment) {
        String s = fragment.strip();
        if (s.isEmpty()) {
            return;
        }
        if (s.chars().noneMatch(Character::isLetter) && !out.isEmpty()) {
            out.set(out.size() - 1, out.get(out.size() - 1) + " " + s);
        } else {
            out.add(s);
        }
    }
}
