package org.chartstream.evaluation.sets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/** The figures of a whole-set evaluation: per kind and over all questions, then one line per question. */
public final class SetFigures {
    private final List<SetScore> scores = new ArrayList<>();
    private final Map<String, List<String>> truthMismatches = new LinkedHashMap<>();
    private final Map<String, String> notScored = new LinkedHashMap<>();

    public void add(SetScore score) {
        scores.add(score);
    }

    /** The stored answer of {@code id} differs from its SQL's on this source, on {@code keys} (the SQL's is scored). */
    public void truthMismatch(String id, List<String> keys) {
        truthMismatches.put(id, List.copyOf(keys));
    }

    /** {@code id} could not be scored (its SQL failed on this source), and why. */
    public void notScored(String id, String why) {
        notScored.put(id, why);
    }

    public List<SetScore> scores() {
        return List.copyOf(scores);
    }

    public Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("overall", summary(scores));
        Map<String, List<SetScore>> byKind = new LinkedHashMap<>();
        scores.forEach(s -> byKind.computeIfAbsent(s.kind(), k -> new ArrayList<>()).add(s));
        Map<String, Object> kinds = new LinkedHashMap<>();
        byKind.forEach((kind, list) -> kinds.put(kind, summary(list)));
        f.put("kinds", kinds);
        f.put("truth_mismatches", truthMismatches);
        f.put("not_scored", notScored);
        f.put("questions", scores.stream().map(SetScore::figures).toList());
        return f;
    }

    /** The figures of a group of scores. */
    static Map<String, Object> summary(List<SetScore> group) {
        Map<String, Object> f = new LinkedHashMap<>();
        int n = group.size();
        f.put("questions", n);
        f.put("exact", count(group, SetScore::exact));
        f.put("exact_rate", rate(count(group, SetScore::exact), n));
        f.put("answered", count(group, s -> s.outcome() == org.chartstream.retrieval.Outcome.ANSWER));
        f.put("refused", count(group, s -> s.outcome() == org.chartstream.retrieval.Outcome.REFUSED));
        f.put("clarified", count(group, s -> s.outcome() == org.chartstream.retrieval.Outcome.CLARIFY));
        f.put("false_answers", count(group, SetScore::falseAnswer));
        f.put("false_answer_rate", rate(count(group, SetScore::falseAnswer), n));
        f.put("complete_labels", count(group, SetScore::completeLabel));
        f.put("false_complete_labels", count(group, SetScore::falseComplete));
        f.put("scored_from_set", count(group, s -> s.source().equals(ReplyReading.SET)));
        f.put("scored_from_text", count(group, s -> s.source().equals(ReplyReading.TEXT)));
        mean(f, "patient_recall", group, SetScore::patientRecall);
        mean(f, "patient_precision", group, SetScore::patientPrecision);
        mean(f, "value_recall", group, SetScore::valueRecall);
        ofScored(f, "lists_complete", group, SetScore::listComplete);
        mean(f, "row_recall", group, SetScore::rowRecall);
        ofScored(f, "counts_right", group, SetScore::countRight);
        ofScored(f, "about_that_patient_only", group, SetScore::scopedOnly);
        int foreign = group.stream().filter(s -> s.scopedOnly() != null).mapToInt(SetScore::foreignCitations).sum();
        if (group.stream().anyMatch(s -> s.scopedOnly() != null)) {
            f.put("foreign_citations", foreign);
        }
        return f;
    }

    private static int count(List<SetScore> group, Predicate<SetScore> test) {
        return (int) group.stream().filter(test).count();
    }

    /** The mean over the questions where the figure is defined, with how many those are. */
    private static void mean(Map<String, Object> f, String name, List<SetScore> group, Function<SetScore, Double> figure) {
        List<Double> defined = group.stream().map(figure).filter(Objects::nonNull).toList();
        if (!defined.isEmpty()) {
            f.put(name, round(defined.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
            f.put(name + "_of", defined.size());
        }
    }

    /** "x of y": how many of the questions scored on the flag have it. */
    private static void ofScored(Map<String, Object> f, String name, List<SetScore> group, Function<SetScore, Boolean> flag) {
        List<Boolean> defined = group.stream().map(flag).filter(Objects::nonNull).toList();
        if (!defined.isEmpty()) {
            f.put(name, defined.stream().filter(Boolean::booleanValue).count() + " of " + defined.size());
        }
    }

    static double rate(int part, int whole) {
        return whole == 0 ? 0 : round((double) part / whole);
    }

    static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
