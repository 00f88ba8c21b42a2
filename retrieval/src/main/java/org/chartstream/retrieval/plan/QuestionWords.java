package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A question's words as the plan reads them: runs of letters and digits, folded as row values are
 * ({@link org.chartstream.core.store.rowset.FieldValues}), each marked with what it is to the plan. A word left
 * {@link Role#CONTENT} names something the plan must find in the index (a concept, a drug); the rules mark the rest.
 */
public final class QuestionWords {

    /** What a word is to the plan. */
    public enum Role {
        /** Names something to be found in the index's vocabulary. */
        CONTENT,
        /** A word of the question's frame (which, patients, have, the …). */
        FRAME,
        /** Names a kind of record (diagnosed, procedure, prescribed …): chooses the table. */
        KIND,
        /** Names a field whose values are asked for. */
        FIELD,
        /** Says that what follows is left out (not, never, without …). */
        NEGATION,
        /** Joins alternatives. */
        OR,
        /** Joins parts that must all hold. */
        AND,
        /** A year, date or count word of the question's time or output. */
        NUMBER,
        /** Names a patient or an admission by number. */
        SCOPE
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    private final String text;
    private final List<String> words;
    private final Role[] roles;

    private QuestionWords(String text, List<String> words) {
        this.text = text;
        this.words = List.copyOf(words);
        this.roles = new Role[words.size()];
        Arrays.fill(roles, Role.CONTENT);
    }

    public static QuestionWords of(String question) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(question.toLowerCase(Locale.ROOT));
        while (m.find()) {
            words.add(m.group());
        }
        return new QuestionWords(question.toLowerCase(Locale.ROOT), words);
    }

    /** The question, folded to lower case. */
    public String text() {
        return text;
    }

    public List<String> words() {
        return words;
    }

    public int size() {
        return words.size();
    }

    public String word(int i) {
        return words.get(i);
    }

    public Role role(int i) {
        return roles[i];
    }

    /** Marks words {@code [from, to)} as {@code role}. */
    public void mark(int from, int to, Role role) {
        for (int i = from; i < to; i++) {
            roles[i] = role;
        }
    }

    /** Marks every still-{@link Role#CONTENT} word equal to {@code word}. */
    public void markAll(java.util.Set<String> which, Role role) {
        for (int i = 0; i < words.size(); i++) {
            if (roles[i] == Role.CONTENT && which.contains(words.get(i))) {
                roles[i] = role;
            }
        }
    }

    /** Where {@code phrase} starts at or after {@code from} among the words, or -1. */
    public int find(List<String> phrase, int from) {
        if (from >= words.size()) {
            return -1;
        }
        int at = Collections.indexOfSubList(words.subList(from, words.size()), phrase);
        return at < 0 ? -1 : from + at;
    }

    public boolean contains(String... phrase) {
        return find(List.of(phrase), 0) >= 0;
    }

    /** The first word at or after {@code from} whose role is {@code role}, or -1. */
    public int next(Role role, int from) {
        for (int i = from; i < words.size(); i++) {
            if (roles[i] == role) {
                return i;
            }
        }
        return -1;
    }

    /** A run of content words: a phrase to find in the index. */
    public record Phrase(String text, List<String> words, int start, int end, boolean negated, boolean afterAnd) {
        public Phrase {
            words = List.copyOf(words);
        }
    }

    /**
     * The maximal runs of {@link Role#CONTENT} words, in order; a run after a {@link Role#NEGATION} word is negated,
     * one after an {@link Role#AND} (and no {@link Role#OR}) since the previous run says it must hold as well.
     */
    public List<Phrase> phrases() {
        List<Phrase> out = new ArrayList<>();
        boolean negated = false;
        boolean and = false;
        boolean or = false;
        int i = 0;
        while (i < words.size()) {
            if (roles[i] != Role.CONTENT) {
                negated |= roles[i] == Role.NEGATION;
                and |= roles[i] == Role.AND;
                or |= roles[i] == Role.OR;
                i++;
                continue;
            }
            int start = i;
            while (i < words.size() && roles[i] == Role.CONTENT) {
                i++;
            }
            List<String> run = words.subList(start, i);
            out.add(new Phrase(String.join(" ", run), run, start, i, negated, and && !or && !out.isEmpty()));
            and = false;
            or = false;
        }
        return out;
    }

    /** The indexes of the words marked {@code role}. */
    public List<Integer> marked(Role role) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            if (roles[i] == role) {
                out.add(i);
            }
        }
        return out;
    }

    /** Sizes only: the words are the question's. */
    @Override
    public String toString() {
        return "QuestionWords[" + words.size() + " words]";
    }
}
