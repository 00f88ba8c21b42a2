package org.chartstream.query.request;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.chartstream.core.store.TableRef;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.RetrievalFilterSpec;

/**
 * What is wrong with a request, named by field, or null when nothing is. Filter values are never interpreted: a
 * patient or row key is matched as an exact literal by both search sides, so a value shaped like an injection
 * matches no record whatever it holds. A patient filter must in addition look like a patient identifier (letters,
 * digits, spaces and {@code . _ : / # -}), so an injection-shaped one ({@code x' OR '1'='1}, {@code {"$ne":null}})
 * is rejected and dead-lettered rather than quietly refused. Tables and sources in a filter must be ones the index
 * holds (the projection's allow-list decides which tables reach the index).
 */
public final class RequestCheck {
    private static final int MAX_FILTER_VALUE_CHARS = 512;
    /** Medical record numbers and patient ids: {@code MRN-700001}, a UUID, {@code 12/3456#A}. */
    private static final Pattern PATIENT_IDENTIFIER = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._:/#-]*");

    private RequestCheck() {
    }

    /**
     * @param field   the field or header at fault: safe to log (the message may echo request content, so it is not)
     * @param message what is wrong, for the error reply and the dead letter
     */
    public record Problem(String field, String message) {
    }

    /**
     * @param indexed the tables the index holds; asked only when the filter names tables or sources
     */
    public static Problem problem(QueryRequest r, int maxQuestionChars, int maxTopK, Supplier<Set<TableRef>> indexed) {
        if (r.getRequestId() == null || r.getRequestId().isBlank()) {
            return new Problem("request_id", "field 'request_id' is empty");
        }
        if (r.getConversationId() == null || r.getConversationId().isBlank()) {
            return new Problem("conversation_id", "field 'conversation_id' is empty");
        }
        if (r.getUserId() == null || r.getUserId().isBlank()) {
            return new Problem("user_id", "field 'user_id' is empty");
        }
        if (r.getQuestion() == null || r.getQuestion().isBlank()) {
            return new Problem("question", "field 'question' is empty");
        }
        int length = QuestionText.length(r.getQuestion());
        if (length > maxQuestionChars) {
            return new Problem("question", "field 'question' has " + length + " characters; the limit is " + maxQuestionChars);
        }
        if (QuestionText.normalise(r.getQuestion()).isEmpty()) {
            return new Problem("question", "field 'question' is empty: it holds only white space, control or invisible format characters");
        }
        if (r.getTopK() < 1 || r.getTopK() > maxTopK) {
            return new Problem("top_k", "field 'top_k' is " + r.getTopK() + "; it must be between 1 and " + maxTopK);
        }
        return r.getFilter() == null ? null : filterProblem(r.getFilter(), indexed);
    }

    /** Whether the request's {@code deadline_ms} has passed: it then gets a {@code timeout} reply, not an answer. */
    public static boolean pastDeadline(QueryRequest r, long nowMs) {
        return r.getDeadlineMs() != null && r.getDeadlineMs() < nowMs;
    }

    static Problem filterProblem(RetrievalFilterSpec f, Supplier<Set<TableRef>> indexed) {
        Problem blank = firstBlankOrTooLong("filter.tables", f.getTables());
        blank = blank != null ? blank : firstBlankOrTooLong("filter.source_ids", f.getSourceIds());
        blank = blank != null ? blank : firstBlankOrTooLong("filter.row_keys", f.getRowKeys());
        if (blank != null) {
            return blank;
        }
        if (f.getPatient() != null && (f.getPatient().isBlank() || f.getPatient().length() > MAX_FILTER_VALUE_CHARS)) {
            return new Problem("filter.patient", "field 'filter.patient' is " + (f.getPatient().isBlank() ? "empty" : "longer than " + MAX_FILTER_VALUE_CHARS + " characters"));
        }
        if (f.getPatient() != null && !PATIENT_IDENTIFIER.matcher(f.getPatient()).matches()) {
            // the value is not echoed: it may be an identifier with a typo, and replies and dead letters are read by operators
            return new Problem("filter.patient", "field 'filter.patient' is not a patient identifier: it must start with a letter or digit"
                    + " and hold only letters, digits, spaces and . _ : / # -");
        }
        if (f.getTables().isEmpty() && f.getSourceIds().isEmpty()) {
            return null;
        }
        Set<TableRef> held = indexed.get();
        Set<String> tables = held.stream().map(TableRef::table).collect(Collectors.toCollection(TreeSet::new));
        Set<String> sources = held.stream().map(TableRef::sourceId).collect(Collectors.toCollection(TreeSet::new));
        for (String table : f.getTables()) {
            if (!tables.contains(table)) {
                return new Problem("filter.tables", "field 'filter.tables' names '" + table + "', which is not an indexed table (indexed: "
                        + String.join(", ", tables) + ")");
            }
        }
        for (String source : f.getSourceIds()) {
            if (!sources.contains(source)) {
                return new Problem("filter.source_ids", "field 'filter.source_ids' names '" + source + "', which is not an indexed source (indexed: "
                        + String.join(", ", sources) + ")");
            }
        }
        return null;
    }

    private static Problem firstBlankOrTooLong(String field, List<String> values) {
        for (String v : values) {
            if (v == null || v.isBlank()) {
                return new Problem(field, "field '" + field + "' has an empty entry");
            }
            if (v.length() > MAX_FILTER_VALUE_CHARS) {
                return new Problem(field, "field '" + field + "' has an entry longer than " + MAX_FILTER_VALUE_CHARS + " characters");
            }
        }
        return null;
    }

    /**
     * What is wrong with a {@code reply-to} header value, or null: not a legal name, one of the pipeline's own topics,
     * not on the allow-list ({@link ReplyTopicPolicy}), or a topic the broker does not have.
     */
    public static Problem replyTopicProblem(String topic, ReplyTopicPolicy policy, ReplyTopics topics) {
        Problem refused = policy.problem(topic);
        if (refused != null) {
            return refused;
        }
        if (!topics.exists(topic)) {
            return new Problem("reply-to", "header 'reply-to' names topic '" + topic + "', which does not exist");
        }
        return null;
    }
}
