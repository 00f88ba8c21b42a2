package org.chartstream.evaluation.sets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a whole-set question file: one JSON object a line (blank lines skipped). Every error names the file, the line
 * and the field, and says what is wrong; nothing in a file that is read is dropped silently.
 */
public final class SetQuestionFile {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("id", "kind", "question", "sql", "params", "answer", "scope",
            "conversation", "why");

    private SetQuestionFile() {
    }

    public static List<SetQuestion> read(Path file) {
        try {
            return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read question file " + file, e);
        }
    }

    /** @param name what errors call the file */
    public static List<SetQuestion> parse(String name, List<String> lines) {
        List<SetQuestion> questions = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            SetQuestion q = question(new Where(name, i + 1), lines.get(i));
            if (!ids.add(q.id())) {
                throw new Where(name, i + 1).error("id", "'" + q.id() + "' is already the id of an earlier line");
            }
            questions.add(q);
        }
        if (questions.isEmpty()) {
            throw new IllegalArgumentException(name + ": holds no question");
        }
        return questions;
    }

    private static SetQuestion question(Where at, String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(at + ": not a JSON object (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(at + ": not a JSON object");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!FIELDS.contains(field)) {
                throw at.error(field, "unknown field; known: " + String.join(", ", new java.util.TreeSet<>(FIELDS)));
            }
        }
        String id = text(at, node, "id", true);
        String kind = text(at, node, "kind", true);
        String question = text(at, node, "question", true);
        String sql = text(at, node, "sql", false);
        String params = text(at, node, "params", false);
        Map<String, Object> answer = answer(at, node.get("answer"));
        List<String> scored = new ArrayList<>(answer.keySet());
        boolean refuse = scored.contains(SetQuestion.REFUSE);
        if (refuse && scored.size() > 1) {
            throw at.error("answer", "'refuse' is the whole answer of an unanswerable question; it has " + scored);
        }
        if (refuse && answer.get(SetQuestion.REFUSE) != null && !Boolean.TRUE.equals(answer.get(SetQuestion.REFUSE))) {
            throw at.error("answer.refuse", "must be true");
        }
        if (sql == null && !refuse) {
            throw at.error("sql", "missing: an answerable question needs the SQL that answers it");
        }
        return new SetQuestion(at.line(), id, kind, question, sql, params, scored, answer, scope(at, node.get("scope")),
                text(at, node, "conversation", false));
    }

    private static Map<String, Object> answer(Where at, JsonNode answer) {
        if (answer == null || !answer.isObject()) {
            throw at.error("answer", answer == null ? "missing" : "must be an object whose keys say what is scored");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = answer.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!SetQuestion.KEYS.contains(e.getKey())) {
                throw at.error("answer." + e.getKey(), "unknown answer key; known: " + String.join(", ", SetQuestion.KEYS));
            }
            out.put(e.getKey(), stored(at, e.getKey(), e.getValue()));
        }
        if (out.isEmpty()) {
            throw at.error("answer", "names nothing to score: give one of " + String.join(", ", SetQuestion.KEYS));
        }
        return out;
    }

    private static Object stored(Where at, String key, JsonNode value) {
        if (value.isNull()) {
            return null;
        }
        return switch (key) {
            case SetQuestion.COUNT -> {
                if (!value.canConvertToLong()) {
                    throw at.error("answer.count", "must be an integer or null");
                }
                yield value.asLong();
            }
            case SetQuestion.REFUSE -> {
                if (!value.isBoolean()) {
                    throw at.error("answer.refuse", "must be true");
                }
                yield value.asBoolean();
            }
            case SetQuestion.ROWS -> {
                if (!value.isArray()) {
                    throw at.error("answer.rows", "must be an array of rows (arrays) or null");
                }
                List<List<String>> rows = new ArrayList<>();
                for (JsonNode row : value) {
                    if (!row.isArray()) {
                        throw at.error("answer.rows", "row " + (rows.size() + 1) + " is not an array");
                    }
                    List<String> cells = new ArrayList<>();
                    row.forEach(cell -> cells.add(cell.isNull() ? null : cell.asText()));
                    rows.add(cells);
                }
                yield rows;
            }
            default -> {
                if (!value.isArray()) {
                    throw at.error("answer." + key, "must be an array or null");
                }
                List<String> items = new ArrayList<>();
                for (JsonNode item : value) {
                    if (!item.isValueNode() || item.isNull()) {
                        throw at.error("answer." + key, "item " + (items.size() + 1) + " is not a number or string");
                    }
                    items.add(item.asText());
                }
                yield items;
            }
        };
    }

    private static Map<String, String> scope(Where at, JsonNode scope) {
        if (scope == null || scope.isNull()) {
            return Map.of();
        }
        if (!scope.isObject()) {
            throw at.error("scope", "must be an object naming a column and its number, e.g. {\"subject_id\": 10014078}");
        }
        Map<String, String> out = new LinkedHashMap<>();
        scope.fields().forEachRemaining(e -> {
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw at.error("scope." + e.getKey(), "must be a number or string");
            }
            out.put(e.getKey(), e.getValue().asText());
        });
        return out;
    }

    private static String text(Where at, JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw at.error(field, "missing");
            }
            return null;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw at.error(field, "must be a non-empty string");
        }
        return value.asText();
    }

    private record Where(String file, int line) {
        IllegalArgumentException error(String field, String what) {
            return new IllegalArgumentException(this + ": field '" + field + "': " + what);
        }

        @Override
        public String toString() {
            return file + " line " + line;
        }
    }
}
