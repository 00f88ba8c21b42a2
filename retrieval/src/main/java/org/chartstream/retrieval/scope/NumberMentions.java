package org.chartstream.retrieval.scope;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a question names a patient by number, by the words before it: {@code patient 10014078}, {@code pt 10014078},
 * {@code subject 10014078}, {@code patient no. MRN-000123}, {@code patient number 42}, {@code MRN 000123},
 * {@code #10014078}. Such a number names a person, whatever the index holds: it is never a clinical code, and when no
 * indexed patient has it the question cannot be answered ({@link ScopeResolver}).
 *
 * <p>The number is a word of letters, digits and inner hyphens holding a digit. After a bare {@code patient},
 * {@code pt} or {@code subject}, a number of digits alone needs four or more of them, because "Is the patient 65 or
 * older?" writes an age there; after {@code number}, {@code no.}, {@code id}, {@code MRN} or {@code #} any length
 * counts. After {@code #} only digits count ({@code #I10} is a code).
 */
public final class NumberMentions {
    private static final String NUMBER = "([\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?)(?![\\p{L}\\p{N}])";
    private static final String BEFORE = "(?<![\\p{L}\\p{N}_])";
    private static final Pattern AFTER_WORD = Pattern.compile(BEFORE + "(?:patient|pt|subject|subj)"
            + "(?:[_\\s]*(no|nr|num|number|id|mrn)(?![\\p{L}\\p{N}]))?\\.?\\s*([:#]?)\\s*" + NUMBER,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern AFTER_MRN = Pattern.compile(BEFORE + "mrn\\s*[:#]?\\s*" + NUMBER,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern AFTER_HASH = Pattern.compile("(?<![\\p{L}\\p{N}])#\\s*(\\p{N}+)(?![\\p{L}\\p{N}])");
    private static final Pattern DIGIT = Pattern.compile("\\p{N}");
    private static final Pattern DIGITS = Pattern.compile("\\p{N}+");
    private static final int SHORTEST_BARE_NUMBER = 4;

    /**
     * One patient number the question writes.
     *
     * @param number the number as written
     * @param start  where it starts in the question
     * @param end    where it ends (exclusive)
     */
    public record Mention(String number, int start, int end) {
        /** Folded as names and numbers are compared ({@link Words#fold}). */
        public String folded() {
            return Words.fold(number);
        }
    }

    private NumberMentions() {
    }

    /** The patient numbers {@code question} writes, in order (a number written twice, twice). */
    public static List<Mention> in(String question) {
        List<Mention> found = new ArrayList<>();
        Matcher word = AFTER_WORD.matcher(question);
        while (word.find()) {
            String number = word.group(3);
            boolean bare = word.group(1) == null && word.group(2).isEmpty();
            if (DIGIT.matcher(number).find() && !(bare && DIGITS.matcher(number).matches() && number.length() < SHORTEST_BARE_NUMBER)) {
                found.add(new Mention(number, word.start(3), word.end(3)));
            }
        }
        for (Pattern cue : List.of(AFTER_MRN, AFTER_HASH)) {
            Matcher m = cue.matcher(question);
            while (m.find()) {
                int start = m.start(1);
                if (DIGIT.matcher(m.group(1)).find() && found.stream().noneMatch(f -> f.start() == start)) {
                    found.add(new Mention(m.group(1), start, m.end(1)));
                }
            }
        }
        found.sort(Comparator.comparingInt(Mention::start));
        return found;
    }
}
