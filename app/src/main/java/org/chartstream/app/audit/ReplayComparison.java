package org.chartstream.app.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.chartstream.schemas.ReplyType;

/**
 * One replayed request against its original answer: rows cited only by the replay (added), only by the original
 * (removed), cited by both but in another row version (revised: other source position or generation), whether the
 * outcome and the answer text changed. Names rows and ids only, never text.
 */
public record ReplayComparison(String requestId, ReplyType originalOutcome, ReplyType replayOutcome,
                               AnswerTextChange answerText, List<String> added, List<String> removed, List<String> revised) {

    public enum AnswerTextChange { SAME, CHANGED, UNKNOWN }

    /** Same outcome, same answer text (or unknown) and the same row versions cited. */
    public boolean same() {
        return originalOutcome == replayOutcome && answerText != AnswerTextChange.CHANGED
                && added.isEmpty() && removed.isEmpty() && revised.isEmpty();
    }

    /** @param original null when neither the original reply nor its audit record was found */
    public static ReplayComparison compare(String requestId, AnswerView original, AnswerView replay) {
        if (original == null) {
            return new ReplayComparison(requestId, null, replay.outcome(), AnswerTextChange.UNKNOWN,
                    rowIds(replay), List.of(), List.of());
        }
        Map<String, CitedRow> before = byRow(original);
        Map<String, CitedRow> after = byRow(replay);
        List<String> added = new ArrayList<>();
        List<String> revised = new ArrayList<>();
        after.forEach((row, cited) -> {
            CitedRow old = before.get(row);
            if (old == null) {
                added.add(row);
            } else if (old.generation() != cited.generation() || !Objects.equals(old.sourcePosition(), cited.sourcePosition())) {
                revised.add(row);
            }
        });
        List<String> removed = before.keySet().stream().filter(row -> !after.containsKey(row)).toList();
        AnswerTextChange text = original.text() == null ? AnswerTextChange.UNKNOWN
                : original.text().equals(replay.text()) ? AnswerTextChange.SAME : AnswerTextChange.CHANGED;
        return new ReplayComparison(requestId, original.outcome(), replay.outcome(), text, added, removed, revised);
    }

    private static List<String> rowIds(AnswerView view) {
        return List.copyOf(byRow(view).keySet());
    }

    /** First citation of each row (a row is cited once after row dedupe; extra chunks of it add nothing here). */
    private static Map<String, CitedRow> byRow(AnswerView view) {
        Map<String, CitedRow> rows = new LinkedHashMap<>();
        for (CitedRow c : view.citations()) {
            rows.putIfAbsent(c.rowId(), c);
        }
        return rows;
    }
}
