package org.chartstream.evaluation.sets;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One question of a whole-set question file (one JSON object a line; see {@code eval/mimic/README.md}).
 *
 * @param line         the line of the file it was read from (1-based), for errors
 * @param kind         the kind of question, what the figures are grouped by
 * @param question     the text asked; {@code {column}} placeholders are filled from the first row of {@code params}
 * @param sql          the SQL whose result on the loaded source is the truth; null on an unanswerable question
 * @param params       SQL whose first row fills the placeholders of {@code question} and {@code sql}, or null
 * @param scored       the answer keys the reply is scored on ({@link #PATIENTS}, {@link #VALUES}, {@link #ROWS},
 *                     {@link #COUNT}, {@link #REFUSE}), in the file's order
 * @param stored       the answer the file holds, key to value (a null value: none stored), to cross-check the truth
 * @param scope        the patient or admission the question is about, column to number (may be empty)
 * @param conversation the conversation the question is a turn of (asked after the earlier turns of the same id, in
 *                     file order), or null
 */
public record SetQuestion(int line, String id, String kind, String question, String sql, String params,
                          List<String> scored, Map<String, Object> stored, Map<String, String> scope, String conversation) {
    public static final String PATIENTS = "patients";
    public static final String VALUES = "values";
    public static final String ROWS = "rows";
    public static final String COUNT = "count";
    public static final String REFUSE = "refuse";
    /** The answer keys a question may be scored on. */
    public static final List<String> KEYS = List.of(PATIENTS, VALUES, ROWS, COUNT, REFUSE);

    public SetQuestion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(question, "question");
        scored = List.copyOf(scored);
        stored = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stored));
        scope = Map.copyOf(scope);
    }

    /** The right reply is a refusal: nothing in the source answers it. */
    public boolean unanswerable() {
        return scored.contains(REFUSE);
    }

    /** Sizes only: questions may name patients. */
    @Override
    public String toString() {
        return "SetQuestion[" + id + ", " + kind + ", line " + line + "]";
    }
}
