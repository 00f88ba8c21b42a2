package org.chartstream.evaluation.sets;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.chartstream.retrieval.Outcome;

/**
 * How one reply scored against its question's truth.
 *
 * @param exact            every scored key exactly right (an answerable question answered; an unanswerable one not)
 * @param falseAnswer      answered and not exactly right, or answered at all where a refusal was right
 * @param falseComplete    labelled complete and not exactly right
 * @param patientRecall    expected patients listed / expected (null: patients not scored)
 * @param patientPrecision expected patients listed / patients listed (null: not scored, or none listed)
 * @param valueRecall      expected values shown / expected (null: values not scored)
 * @param listComplete     the list of values holds every expected value and (from a set) no other (null: not scored)
 * @param rowRecall        expected rows shown / expected (null: rows not scored)
 * @param countRight       the reply states the expected count (null: count not scored)
 * @param scopedOnly       on a question about one patient (by number), whether the reply answered and cites or lists
 *                         that patient only (null: no such scope)
 * @param foreignCitations cited passages of other patients, on a question about one patient
 */
public record SetScore(String id, String kind, String source, Outcome outcome, boolean completeLabel, boolean exact,
                       boolean falseAnswer, boolean falseComplete, Double patientRecall, Double patientPrecision,
                       Double valueRecall, Boolean listComplete, Double rowRecall, Boolean countRight, Boolean scopedOnly,
                       int foreignCitations) {

    private static final Pattern TIMESTAMP = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([+-]\\d{2}(:?\\d{2})?|Z)?");

    /**
     * @param scopedPatient the patient number the question is about (its scope), or null
     */
    public static SetScore of(SetQuestion q, Expected truth, ReplyReading reply, String scopedPatient) {
        boolean answered = reply.outcome() == Outcome.ANSWER;
        Double recall = null;
        Double precision = null;
        Double valueRecall = null;
        Boolean listComplete = null;
        Double rowRecall = null;
        Boolean countRight = null;
        boolean exact;
        if (truth.refuse()) {
            exact = !answered;
        } else {
            exact = answered;
            if (truth.patients() != null) {
                long hit = truth.patients().stream().filter(reply.patients()::contains).count();
                recall = truth.patients().isEmpty() ? (reply.patients().isEmpty() ? 1.0 : 0.0) : (double) hit / truth.patients().size();
                precision = reply.patients().isEmpty() ? null : (double) hit / reply.patients().size();
                exact &= reply.patients().equals(truth.patients());
            }
            if (truth.values() != null) {
                long shown = truth.values().stream().filter(v -> shows(reply, v)).count();
                valueRecall = truth.values().isEmpty() ? 1.0 : (double) shown / truth.values().size();
                listComplete = reply.values() != null
                        ? normalised(reply.values()).equals(normalised(truth.values()))
                        : !truth.values().isEmpty() && shown == truth.values().size();
                exact &= listComplete;
            }
            if (truth.rows() != null) {
                long shown = truth.rows().stream().filter(row -> showsRow(reply, row)).count();
                rowRecall = truth.rows().isEmpty() ? 1.0 : (double) shown / truth.rows().size();
                exact &= !truth.rows().isEmpty() && shown == truth.rows().size();
            }
            if (truth.count() != null) {
                // a count that is only the length of a list the reply listed exactly (from its set: nothing missing,
                // nothing extra) is stated by that list, whatever else (its rows) the reply counts
                boolean listedExactly = ReplyReading.SET.equals(reply.source()) && (truth.values() != null ? Boolean.TRUE.equals(listComplete)
                        : truth.patients() != null && reply.patients().equals(truth.patients()));
                countRight = reply.counts().contains(truth.count()) || (truth.countOfList() && listedExactly);
                exact &= countRight;
            }
        }
        Boolean scopedOnly = null;
        int foreign = 0;
        if (scopedPatient != null) {
            foreign = (int) reply.citedPatients().stream().filter(p -> p != null && !p.equals(scopedPatient)).count();
            scopedOnly = answered && foreign == 0 && reply.patients().stream().allMatch(scopedPatient::equals);
        }
        boolean falseAnswer = answered && !exact;
        return new SetScore(q.id(), q.kind(), reply.source(), reply.outcome(), reply.completeLabel(), exact, falseAnswer,
                reply.completeLabel() && !exact, recall, precision, valueRecall, listComplete, rowRecall, countRight,
                scopedOnly, foreign);
    }

    private static Set<String> normalised(Set<String> values) {
        return values.stream().map(ReplyReading::normalise).collect(java.util.stream.Collectors.toSet());
    }

    /** Shown as a whole word or phrase: a one-letter value such as a gender code is not found inside another word. */
    private static boolean shows(ReplyReading reply, String value) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(ReplyReading.normalise(value)) + "(?![\\p{L}\\p{N}])")
                .matcher(reply.evidence()).find();
    }

    /** Every non-null cell of the row is shown (a timestamp by its date: replies render times their own way). */
    private static boolean showsRow(ReplyReading reply, List<String> row) {
        for (String cell : row) {
            if (cell == null) {
                continue;
            }
            var timestamp = TIMESTAMP.matcher(cell);
            if (timestamp.matches()) {
                if (!reply.evidence().contains(timestamp.group(1))) {
                    return false;
                }
                continue;
            }
            String shown = cell;
            boolean present = shown.chars().allMatch(Character::isDigit)
                    ? Pattern.compile("(?<![\\w.])" + shown + "(?![\\w]|\\.\\d)").matcher(reply.evidence()).find()
                    : shows(reply, shown);
            if (!present) {
                return false;
            }
        }
        return true;
    }

    /** The figures of one question: ids, flags and rates, never a listed value. */
    public Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("id", id);
        f.put("kind", kind);
        f.put("scored_from", source);
        f.put("outcome", outcome.name());
        f.put("exact", exact);
        f.put("complete_label", completeLabel);
        f.put("false_answer", falseAnswer);
        f.put("false_complete", falseComplete);
        putIfSet(f, "patient_recall", patientRecall);
        putIfSet(f, "patient_precision", patientPrecision);
        putIfSet(f, "value_recall", valueRecall);
        putIfSet(f, "list_complete", listComplete);
        putIfSet(f, "row_recall", rowRecall);
        putIfSet(f, "count_right", countRight);
        putIfSet(f, "about_that_patient_only", scopedOnly);
        if (scopedOnly != null) {
            f.put("foreign_citations", foreignCitations);
        }
        return f;
    }

    private static void putIfSet(Map<String, Object> f, String key, Object value) {
        if (value != null) {
            f.put(key, value instanceof Double d ? SetFigures.round(d) : value);
        }
    }
}
