package org.chartstream.retrieval.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a question names an admission (an encounter) by number, by the words before it: {@code admission 24597018},
 * {@code hadm 24104168}, {@code hadm_id 24104168}, {@code hospital stay 21390688}, {@code stay 21390688},
 * {@code encounter 20437651}, {@code visit 20437651}. The number holds four or more digits ("stay 3 days" writes a
 * length, not an admission).
 */
public final class AdmissionMentions {
    private static final Pattern CUE = Pattern.compile("(?<![\\p{L}\\p{N}_])(admission|hadm(?:[_ ]?id)?|(?:hospital )?stay"
            + "|encounter|visit)(?:\\s*(?:no\\.?|number|id|#))?\\s*[:#]?\\s*(\\p{N}{4,})(?![\\p{L}\\p{N}])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

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

    /** The admission numbers {@code question} writes, in order. */
    public static List<Mention> in(String question) {
        List<Mention> found = new ArrayList<>();
        Matcher m = CUE.matcher(question);
        while (m.find()) {
            found.add(new Mention(m.group(2), m.start(1), m.end(2)));
        }
        return found;
    }
}
