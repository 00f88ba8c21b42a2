package org.chartstream.evaluation.sets;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.generate.Passage;

/**
 * What a reply gave, read the way it is scored: from its structured whole-set result when it carries one
 * ({@link Answer#set()}), else from what the reply shows (its text and the passages it cites).
 *
 * @param source         {@link #SET} or {@link #TEXT}
 * @param completeLabel  the reply labelled its answer complete (its completeness kind: a set's own complete flag says
 *                       only that the executed set is listed whole)
 * @param patients       the patients listed: the set's patient numbers; from text, the known patient numbers found in
 *                       the text and the numbers of the cited passages' patients
 * @param values         the set's values, null from text (a text's extra values cannot be told from its prose)
 * @param counts         the counts the reply states (a set's counts for its output; from text, the first whole number
 *                       that is no patient number and no part of a date or code), possibly empty
 * @param evidence       what the reply shows, lower-cased with spaces collapsed: text, cited passages, set values
 * @param citedPatients  the numbers of the patients of the cited passages (null for a passage without one)
 */
public record ReplyReading(String source, Outcome outcome, boolean completeLabel, Set<String> patients, Set<String> values,
                           Set<Long> counts, String evidence, List<String> citedPatients) {
    public static final String SET = "set";
    public static final String TEXT = "text";
    private static final Pattern WHOLE_NUMBER = Pattern.compile("(?<![\\w.:/\\[-])\\d+(?![\\w.:/-]|\\.\\d)");
    private static final Pattern NUMBER_TOKEN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

    public ReplyReading {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(outcome, "outcome");
        patients = Set.copyOf(patients);
        values = values == null ? null : Set.copyOf(values);
        counts = Set.copyOf(counts);
        citedPatients = java.util.Collections.unmodifiableList(new ArrayList<>(citedPatients));
    }

    /** @param patientNumbers every patient number of the source (what a text is searched for) */
    public static ReplyReading of(Answer answer, Set<String> patientNumbers) {
        List<String> cited = new ArrayList<>();
        StringBuilder shown = new StringBuilder(answer.text());
        for (Passage p : answer.passages()) {
            cited.add(p.chunk().patient() == null ? null : p.chunk().patient().number());
            shown.append('\n').append(p.text());
        }
        boolean complete = answer.completeness().map(c -> c.kind() == Completeness.Kind.COMPLETE).orElse(false);
        if (answer.set().isPresent()) {
            SetResult set = answer.set().get();
            Set<String> values = new LinkedHashSet<>();
            set.values().forEach(v -> {
                values.add(v.value().strip());
                shown.append('\n').append(v.value()).append(' ').append(v.patients()).append(' ').append(v.rows());
            });
            Set<String> patients = new LinkedHashSet<>();
            set.patientsListed().forEach(p -> patients.add(p.strip()));
            return new ReplyReading(SET, answer.outcome(), complete, patients, values, counts(set),
                    normalise(shown.toString()), cited);
        }
        Set<String> patients = new LinkedHashSet<>();
        Matcher tokens = NUMBER_TOKEN.matcher(answer.text());
        while (tokens.find()) {
            if (patientNumbers.contains(tokens.group())) {
                patients.add(tokens.group());
            }
        }
        cited.stream().filter(Objects::nonNull).forEach(patients::add);
        Set<Long> counts = new LinkedHashSet<>();
        Matcher numbers = WHOLE_NUMBER.matcher(answer.text());
        while (numbers.find()) {
            if (!patientNumbers.contains(numbers.group()) && numbers.group().length() < 18) {
                counts.add(Long.parseLong(numbers.group()));
                break;
            }
        }
        return new ReplyReading(TEXT, answer.outcome(), complete, patients, null, counts, normalise(shown.toString()), cited);
    }

    /** What a set counts for its output: a count question may ask for rows or for patients, so both are read. */
    private static Set<Long> counts(SetResult set) {
        return switch (set.output()) {
            case COUNT -> new java.util.TreeSet<>(java.util.List.of(set.rows(), set.patients())); // equal when each row is a patient's
            case PATIENTS -> Set.of(set.patients());
            case VALUES, TOP_VALUES -> Set.of((long) set.values().size());
            case ROWS, LATEST, EARLIEST -> Set.of(set.rows());
        };
    }

    static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    /** Sizes only: a reading is patient data. */
    @Override
    public String toString() {
        return "ReplyReading[" + source + ", " + outcome + ", complete=" + completeLabel + ", patients=" + patients.size()
                + ", values=" + (values == null ? "-" : values.size()) + "]";
    }
}
