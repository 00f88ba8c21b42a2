package org.chartstream.evaluation.sets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The right answer of one question, as its SQL gives it on the loaded source; only the keys the question is scored on
 * are set (the others are null).
 *
 * @param patients the distinct non-null values of the first column (patient numbers)
 * @param values   the distinct non-null values of the last column
 * @param rows     every row, cells as text (null for NULL), in the SQL's order
 * @param count    a one-row result's {@code count} column, else the number of patients, rows or values (that order)
 * @param refuse   the right reply is a refusal
 * @param countOfList the count is the length of the patients or values list, not a count column of the SQL
 */
public record Expected(Set<String> patients, Set<String> values, List<List<String>> rows, Long count, boolean refuse,
                       boolean countOfList) {

    public static final Expected REFUSAL = new Expected(null, null, null, null, true);

    public Expected(Set<String> patients, Set<String> values, List<List<String>> rows, Long count, boolean refuse) {
        this(patients, values, rows, count, refuse, false);
    }

    public Expected {
        patients = patients == null ? null : Set.copyOf(patients);
        values = values == null ? null : Set.copyOf(values);
        rows = rows == null ? null : rows.stream().map(r -> java.util.Collections.unmodifiableList(new ArrayList<>(r))).toList();
    }

    /** The answer a SQL result gives for the {@code scored} keys ({@code eval/mimic/answers.py} fills a file the same way). */
    public static Expected of(List<String> scored, List<String> header, List<List<String>> result) {
        if (scored.contains(SetQuestion.REFUSE)) {
            return REFUSAL;
        }
        Set<String> patients = scored.contains(SetQuestion.PATIENTS) ? distinct(result, 0) : null;
        Set<String> values = scored.contains(SetQuestion.VALUES) ? distinct(result, header.size() - 1) : null;
        List<List<String>> rows = scored.contains(SetQuestion.ROWS) ? result : null;
        Long count = null;
        boolean countOfList = false;
        if (scored.contains(SetQuestion.COUNT)) {
            countOfList = rows == null && (patients != null || values != null);
            if (header.equals(List.of(SetQuestion.COUNT)) && result.size() == 1) {
                count = Long.parseLong(result.get(0).get(0));
                countOfList = false;
            } else if (patients != null) {
                count = (long) patients.size();
            } else if (rows != null) {
                count = (long) rows.size();
            } else if (values != null) {
                count = (long) values.size();
            } else {
                throw new IllegalArgumentException("'count' needs a one-row 'count' column or patients, rows or values to count");
            }
        }
        return new Expected(patients, values, rows, count, false, countOfList);
    }

    private static Set<String> distinct(List<List<String>> result, int column) {
        Set<String> out = new LinkedHashSet<>();
        for (List<String> row : result) {
            if (column >= 0 && column < row.size() && row.get(column) != null) {
                out.add(row.get(column));
            }
        }
        return out;
    }

    /**
     * The keys on which the answer the file stores differs from this one (keys the file leaves null are not compared).
     * Numbers compare by their text ({@code 10014078} and {@code "10014078"} are the same cell).
     */
    public List<String> mismatches(Map<String, Object> stored) {
        Map<String, Object> mine = new LinkedHashMap<>();
        mine.put(SetQuestion.PATIENTS, patients);
        mine.put(SetQuestion.VALUES, values);
        mine.put(SetQuestion.ROWS, rows);
        mine.put(SetQuestion.COUNT, count);
        mine.put(SetQuestion.REFUSE, refuse ? Boolean.TRUE : null);
        List<String> differ = new ArrayList<>();
        stored.forEach((key, value) -> {
            if (value == null) {
                return;
            }
            Object computed = mine.get(key);
            Object compared = value instanceof List<?> list && computed instanceof Set<?> ? new LinkedHashSet<>(list) : value;
            if (!Objects.equals(compared, computed)) {
                differ.add(key);
            }
        });
        return differ;
    }

    /** Sizes only: the answer is patient data. */
    @Override
    public String toString() {
        return "Expected[patients=" + (patients == null ? "-" : patients.size()) + ", values=" + (values == null ? "-" : values.size())
                + ", rows=" + (rows == null ? "-" : rows.size()) + ", count=" + (count == null ? "-" : "set") + ", refuse=" + refuse + "]";
    }
}
