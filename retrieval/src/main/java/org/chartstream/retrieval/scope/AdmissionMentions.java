package org.chartstream.retrieval.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a question names an admission (an encounter) by number, by the words before it: {@code admission 24597018},
 * {@code hospital stay 21390688}, {@code stay 21390688}, {@code encounter 20437651}, {@code visit 20437651}, or the
 * encounter number column's own name as the schema writes it ({@code hadm_id 24104168}, {@code hadm id 24104168},
 * and without its {@code _id}/{@code _no}/{@code _number} suffix: {@code hadm 24104168}). The number holds four or
 * more digits ("stay 3 days" writes a length, not an admission).
 */
public final class AdmissionMentions {
    private static final String WORDS = "admission|(?:hospital )?stay|encounter|visit";
    private static final String TAIL = ")(?:\\s*(?:no\\.?|number|id|#))?\\s*[:#]?\\s*(\\p{N}{4,})(?![\\p{L}\\p{N}])";
    private static final Pattern CUE = cue(List.of());

    /**
     * One admission number the question writes.
     *
     * @param number   the number as written
     * @param cueStart where the words naming it ("admission", "hospital stay") start in the question
     * @param end      where the number ends (exclusive)
     */
    public record Mention(String number, int cueStart, int end) {
    }

    private AdmissionMentions() {
    }

    /** The admission numbers {@code question} writes, in order, by the general words alone. */
    public static List<Mention> in(String question) {
        return in(question, CUE);
    }

    /**
     * The admission numbers {@code question} writes, in order, by the general words or by one of {@code numberColumns}
     * (the encounter tables' number columns, from the binding).
     */
    public static List<Mention> in(String question, List<String> numberColumns) {
        return in(question, numberColumns.isEmpty() ? CUE : cue(numberColumns));
    }

    private static Pattern cue(List<String> numberColumns) {
        StringBuilder alternatives = new StringBuilder(WORDS);
        for (String column : numberColumns) {
            String name = column.toLowerCase(java.util.Locale.ROOT);
            String stem = name.replaceFirst("_(?:id|no|number)$", "");
            alternatives.append('|').append(Pattern.quote(stem).replace("_", "\\E[_ ]\\Q"));
            if (!stem.equals(name)) {
                alternatives.append("(?:[_ ](?:id|no|number))?");
            }
        }
        return Pattern.compile("(?<![\\p{L}\\p{N}_])(" + alternatives + TAIL, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static List<Mention> in(String question, Pattern cue) {
        List<Mention> found = new ArrayList<>();
        Matcher m = cue.matcher(question);
        while (m.find()) {
            found.add(new Mention(m.group(2), m.start(1), m.end(2)));
        }
        return found;
    }
}
