package org.chartstream.retrieval.plan;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.store.rowset.FieldPredicate;

/**
 * The time a question bounds its rows by: "since 2149", "after 2020" (from 2021), "after the start of 2170", "before
 * 2130", "between 2140 and 2149", "in 2150 or later", "in 2020"; a bound is a year or an ISO date. Compared as the
 * row's time text ({@link FieldPredicate.InRange}), so a time on a bound's day or year is inside an inclusive bound.
 *
 * @param from          the lower bound, or null
 * @param fromInclusive whether the lower bound is inside
 * @param to            the upper bound, or null
 * @param toInclusive   whether the upper bound is inside
 * @param start         the first word index of the phrase in the question's words
 * @param end           past its last word
 * @param text          the phrase as the answer quotes it
 */
public record TimeWindow(String from, boolean fromInclusive, String to, boolean toInclusive, int start, int end,
                         String text) {

    private static final String DATE = "(\\d{4}(?:-\\d{2}(?:-\\d{2})?)?)";
    private static final Pattern BETWEEN = Pattern.compile("\\b(?:between|from) " + DATE + " (?:and|to|until|through|-) "
            + DATE + "(?: inclusive)?");
    private static final Pattern SINCE = Pattern.compile("\\b(?:since|from|starting|beginning|as of) (?:the (?:start|beginning) of )?" + DATE);
    private static final Pattern AFTER_START = Pattern.compile("\\bafter the (?:start|beginning) of " + DATE);
    private static final Pattern AFTER = Pattern.compile("\\bafter " + DATE);
    private static final Pattern OR_LATER = Pattern.compile("\\b(?:in )?" + DATE + " (?:or later|or after|and later|onwards?)");
    private static final Pattern OR_EARLIER = Pattern.compile("\\b(?:in )?" + DATE + " (?:or earlier|or before|and earlier)");
    private static final Pattern BEFORE = Pattern.compile("\\b(?:before|prior to) " + DATE);
    private static final Pattern IN = Pattern.compile("\\b(?:in|during) " + DATE);
    private static final Pattern WORDS = Pattern.compile("[\\p{L}\\p{N}]+");

    /** The predicate on {@code timeColumn}. */
    public FieldPredicate.InRange predicate(String timeColumn) {
        return new FieldPredicate.InRange(timeColumn, from, fromInclusive, to, toInclusive);
    }

    /** The time phrase of {@code words}, its words marked {@link QuestionWords.Role#NUMBER}; empty when it has none. */
    public static Optional<TimeWindow> in(QuestionWords words) {
        String text = words.text().replaceAll("[^\\p{L}\\p{N}-]+", " ");
        Matcher m;
        TimeWindow found = null;
        if ((m = BETWEEN.matcher(text)).find()) {
            found = of(text, m, m.group(1), true, m.group(2), true);
        } else if ((m = OR_LATER.matcher(text)).find()) {
            found = of(text, m, m.group(1), true, null, false);
        } else if ((m = OR_EARLIER.matcher(text)).find()) {
            found = of(text, m, null, false, m.group(1), true);
        } else if ((m = AFTER_START.matcher(text)).find() || (m = SINCE.matcher(text)).find()) {
            found = of(text, m, m.group(1), true, null, false);
        } else if ((m = AFTER.matcher(text)).find()) {
            found = of(text, m, m.group(1), false, null, false);
        } else if ((m = BEFORE.matcher(text)).find()) {
            found = of(text, m, null, false, m.group(1), false);
        } else if ((m = IN.matcher(text)).find()) {
            found = of(text, m, m.group(1), true, m.group(1), true);
        }
        if (found != null) {
            words.mark(found.start(), found.end(), QuestionWords.Role.NUMBER);
        }
        return Optional.ofNullable(found);
    }

    private static TimeWindow of(String text, Matcher m, String from, boolean fromInclusive, String to, boolean toInclusive) {
        int start = count(text.substring(0, m.start()));
        int end = start + count(m.group());
        return new TimeWindow(from, fromInclusive, to, toInclusive, start, end, m.group().strip());
    }

    private static int count(String text) {
        int n = 0;
        Matcher w = WORDS.matcher(text);
        while (w.find()) {
            n++;
        }
        return n;
    }

    /** Bounds only. */
    @Override
    public String toString() {
        return "TimeWindow[" + text + "]";
    }
}
