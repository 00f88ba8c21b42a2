package org.chartstream.retrieval.rewrite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the model's rewrite reply: one JSON object, possibly wrapped in prose or a Markdown code fence (small local
 * models add them despite the instructions).
 */
final class RewriteOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The parsed reply; {@code standalone} is {@code null} when the model gave none. */
    record Parsed(String standalone, List<String> alternatives) {
    }

    private RewriteOutput() {
    }

    /** The reply's standalone question and alternatives, or empty when the reply is not such a JSON object. */
    static Optional<Parsed> parse(String content) {
        int open = content.indexOf('{');
        int close = content.lastIndexOf('}');
        if (open < 0 || close <= open) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = JSON.readTree(content.substring(open, close + 1));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        JsonNode standalone = root.get("standalone");
        if (standalone != null && !standalone.isNull() && !standalone.isTextual()) {
            return Optional.empty();
        }
        JsonNode alternatives = root.get("alternatives");
        if (alternatives != null && !alternatives.isNull() && !alternatives.isArray()) {
            return Optional.empty();
        }
        List<String> alts = new ArrayList<>();
        if (alternatives != null && alternatives.isArray()) {
            for (JsonNode a : alternatives) {
                if (!a.isTextual()) {
                    return Optional.empty();
                }
                alts.add(a.asText());
            }
        }
        return Optional.of(new Parsed(standalone == null || standalone.isNull() ? null : standalone.asText(), alts));
    }
}
