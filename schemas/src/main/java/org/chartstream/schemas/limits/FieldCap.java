package org.chartstream.schemas.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The per-field size cap ({@code ingest.max-field-bytes}) on a Debezium JSON change event: every text value of the
 * {@code before} and {@code after} row images longer than the cap in UTF-8 is cut to at most that many bytes, at a
 * character boundary. The row keeps its other fields and is still indexed; the caller names each cut field in a
 * dead letter. Applied before the first Kafka write (the embedded runner) and again when the ingest side reads a
 * change written by a Debezium outside chartstream.
 *
 * @param maxBytes the most UTF-8 bytes one field value may have
 */
public record FieldCap(int maxBytes) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One field that was cut: the row image ({@code before}/{@code after}), the column and its size before. */
    public record Truncated(String image, String field, long originalBytes) {
    }

    /** The event as it may be written and the fields that were cut (empty: {@code value} is the input itself). */
    public record Result(String value, List<Truncated> truncated) {
        public Result {
            truncated = List.copyOf(truncated);
        }
    }

    public FieldCap {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("the field cap must be at least 1 byte, got " + maxBytes);
        }
    }

    /**
     * Caps the row images of a Debezium JSON envelope (with or without embedded schemas). A tombstone (null), a value
     * too short to hold an oversized field, and anything that is not a JSON object are returned unchanged.
     */
    public Result apply(String envelopeJson) {
        // a UTF-16 unit encodes to at most 3 UTF-8 bytes: a shorter event cannot hold a field over the cap
        if (envelopeJson == null || (long) envelopeJson.length() * 3 <= maxBytes) {
            return new Result(envelopeJson, List.of());
        }
        JsonNode root;
        try {
            root = JSON.readTree(envelopeJson);
        } catch (JsonProcessingException e) {
            return new Result(envelopeJson, List.of()); // not ours to judge: the ingest side dead-letters it
        }
        if (root == null || !root.isObject()) {
            return new Result(envelopeJson, List.of());
        }
        JsonNode envelope = root.has("payload") && root.has("schema") ? root.get("payload") : root;
        List<Truncated> cut = new ArrayList<>();
        for (String image : List.of("before", "after")) {
            if (envelope.get(image) instanceof ObjectNode row) {
                capRow(image, row, cut);
            }
        }
        if (cut.isEmpty()) {
            return new Result(envelopeJson, List.of());
        }
        try {
            return new Result(JSON.writeValueAsString(root), cut);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a capped change event", e);
        }
    }

    private void capRow(String image, ObjectNode row, List<Truncated> cut) {
        for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> column = it.next();
            if (!column.getValue().isTextual()) {
                continue;
            }
            String text = column.getValue().textValue();
            if ((long) text.length() * 3 <= maxBytes) {
                continue;
            }
            long bytes = utf8Length(text);
            if (bytes > maxBytes) {
                column.setValue(TextNode.valueOf(truncate(text, maxBytes)));
                cut.add(new Truncated(image, column.getKey(), bytes));
            }
        }
    }

    /** The longest prefix of {@code text} whose UTF-8 form has at most {@code maxBytes} bytes (never half a character). */
    public static String truncate(String text, int maxBytes) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        CharBuffer in = CharBuffer.wrap(text);
        encoder.encode(in, ByteBuffer.allocate(maxBytes), true); // stops before the first character that does not fit
        return text.substring(0, in.position());
    }

    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * The dead-letter reason for one cut field: table, row key and field, sizes and the configuration key; never
     * the value.
     */
    public String reason(String table, String rowKey, Truncated t) {
        return "table " + table + " row " + rowKey + ": field '" + t.field() + "' (" + t.image() + ") has " + t.originalBytes()
                + " bytes, more than ingest.max-field-bytes (" + maxBytes + "); it was truncated to " + maxBytes
                + " bytes and the row is still indexed";
    }
}
