package org.chartstream.ingest.normalize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.schemas.RowChange;
import org.chartstream.schemas.RowOp;
import org.chartstream.schemas.SnapshotMarker;

/**
 * Maps a standard Debezium JSON change event (with or without embedded schemas) to a {@link RowChange}.
 * Temporal values are rendered as ISO strings when the envelope carries the schema that says what they are.
 */
public final class DebeziumEnvelopeParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Topic coordinates of a Debezium data topic: {@code <prefix>.<schema>.<table>}. */
    public record TopicName(String prefix, String schema, String table) {
        public static TopicName parse(String topic, String prefix) {
            if (!topic.startsWith(prefix + ".")) {
                throw new MalformedChangeException("topic " + topic + " does not start with the source prefix " + prefix);
            }
            String rest = topic.substring(prefix.length() + 1);
            int dot = rest.lastIndexOf('.');
            if (dot <= 0 || dot == rest.length() - 1) {
                throw new MalformedChangeException("topic " + topic + " is not <prefix>.<schema>.<table>");
            }
            return new TopicName(prefix, rest.substring(0, dot), rest.substring(dot + 1));
        }
    }

    /**
     * A parsed change and the columns left out of its row images because their values cannot be rendered as text
     * (binary data, structs such as geometries, maps): column name → type, in row order. For a {@code TRUNCATE}
     * (Debezium {@code op=t}) {@code change} is null and {@code truncation} says which table was emptied.
     */
    public record Parsed(RowChange change, Map<String, String> unreadableColumns, TableTruncated truncation) {
        public Parsed(RowChange change, Map<String, String> unreadableColumns) {
            this(change, unreadableColumns, null);
        }
    }

    private DebeziumEnvelopeParser() {
    }

    /**
     * @param key   the JSON key (primary-key columns), never null for a table with a primary key
     * @param value the JSON envelope, or null for a tombstone (read as a delete of the keyed row)
     */
    public static RowChange parse(SourceRegistration source, String topic, String key, String value) {
        return read(source, topic, key, value).change();
    }

    /** As {@link #parse}, also naming the columns that were left out as unreadable. */
    public static Parsed read(SourceRegistration source, String topic, String key, String value) {
        TopicName name = TopicName.parse(topic, source.topicPrefix());
        JsonNode root = value == null ? null : readTree(value, "value");
        if (root != null) {
            TableTruncated truncated = truncation(source, name, root);
            if (truncated != null) {
                return new Parsed(null, Map.of(), truncated);
            }
        }
        String rowKey = rowKey(readTree(key, "key"));
        RowChange.Builder change = RowChange.newBuilder()
                .setSourceId(source.sourceId()).setSourceKind(source.kind())
                .setSchemaName(name.schema()).setTableName(name.table())
                .setRowKey(rowKey).setSnapshot(SnapshotMarker.NONE);
        if (value == null) {
            return new Parsed(change.setOp(RowOp.DELETE).setBefore(null).setAfter(null)
                    .setSourcePosition("").setCommitTsMs(0L).setCapturedTsMs(0L).build(), Map.of());
        }
        JsonNode schema = root.has("payload") && root.has("schema") ? root.get("schema") : null;
        JsonNode envelope = schema != null ? root.get("payload") : root;
        JsonNode op = envelope.get("op");
        if (op == null || !op.isTextual()) {
            throw new MalformedChangeException("change event on " + topic + " has no 'op' field");
        }
        JsonNode src = envelope.get("source");
        if (src == null || !src.isObject()) {
            throw new MalformedChangeException("change event on " + topic + " has no 'source' block");
        }
        change.setOp(switch (op.asText()) {
            case "r" -> RowOp.SNAPSHOT;
            case "c" -> RowOp.CREATE;
            case "u" -> RowOp.UPDATE;
            case "d" -> RowOp.DELETE;
            default -> throw new MalformedChangeException("change event on " + topic + " has unknown op '" + op.asText() + "'");
        });
        Map<String, String> unreadable = new LinkedHashMap<>();
        change.setBefore(row(envelope.get("before"), columnSchemas(schema, "before"), unreadable));
        change.setAfter(row(envelope.get("after"), columnSchemas(schema, "after"), unreadable));
        if (change.getOp() != RowOp.DELETE && change.getAfter() == null) {
            throw new MalformedChangeException("change event on " + topic + " with op '" + op.asText() + "' has no 'after' row");
        }
        change.setSnapshot(marker(src.path("snapshot").asText("false")));
        change.setSourcePosition(position(src));
        change.setCommitTsMs(src.path("ts_ms").asLong(0L));
        change.setCapturedTsMs(envelope.path("ts_ms").asLong(0L));
        return new Parsed(change.build(), java.util.Collections.unmodifiableMap(unreadable));
    }

    /** A truncate event ({@code op=t}, no key and no row images), or null for any other event. */
    private static TableTruncated truncation(SourceRegistration source, TopicName name, JsonNode root) {
        JsonNode envelope = root.has("payload") && root.has("schema") ? root.get("payload") : root;
        if (!"t".equals(envelope.path("op").asText())) {
            return null;
        }
        JsonNode src = envelope.path("source");
        return new TableTruncated(source.sourceId(), name.schema(), name.table(), src.isObject() ? position(src) : "",
                src.path("ts_ms").asLong(0L));
    }

    static SnapshotMarker marker(String snapshot) {
        return switch (snapshot) {
            case "first" -> SnapshotMarker.FIRST;
            case "first_in_data_collection" -> SnapshotMarker.FIRST_IN_TABLE;
            case "true" -> SnapshotMarker.MIDDLE;
            case "last_in_data_collection" -> SnapshotMarker.LAST_IN_TABLE;
            case "last" -> SnapshotMarker.LAST;
            default -> SnapshotMarker.NONE;
        };
    }

    private static String position(JsonNode src) {
        if (src.hasNonNull("lsn")) {
            return "lsn:" + src.get("lsn").asText();
        }
        if (src.hasNonNull("file")) {
            return "binlog:" + src.get("file").asText() + ":" + src.path("pos").asText("0") + ":" + src.path("row").asText("0");
        }
        if (src.hasNonNull("change_lsn") || src.hasNonNull("commit_lsn")) {
            return "sqlserver:" + src.path("commit_lsn").asText("") + ":" + src.path("change_lsn").asText("");
        }
        return "";
    }

    private static JsonNode readTree(String json, String what) {
        if (json == null) {
            throw new MalformedChangeException("change event has no " + what);
        }
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw new MalformedChangeException("change event " + what + " is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new MalformedChangeException("change event " + what + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static String rowKey(JsonNode key) {
        JsonNode payload = key.has("payload") && key.has("schema") ? key.get("payload") : key;
        if (payload == null || !payload.isObject() || payload.isEmpty()) {
            throw new MalformedChangeException("change event key has no primary-key columns");
        }
        List<String> parts = new ArrayList<>();
        payload.fields().forEachRemaining(e -> parts.add(scalar(e.getValue(), null)));
        return String.join("|", parts);
    }

    private static Map<String, JsonNode> columnSchemas(JsonNode schema, String field) {
        Map<String, JsonNode> columns = new HashMap<>();
        if (schema == null) {
            return columns;
        }
        for (JsonNode f : schema.path("fields")) {
            if (field.equals(f.path("field").asText())) {
                for (JsonNode column : f.path("fields")) {
                    columns.put(column.path("field").asText(), column);
                }
            }
        }
        return columns;
    }

    /** A row image as text values; unreadable columns are left out and named in {@code unreadable}. */
    private static Map<String, String> row(JsonNode node, Map<String, JsonNode> schemas, Map<String, String> unreadable) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new MalformedChangeException("row image is not a JSON object");
        }
        Map<String, String> row = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> column = it.next();
            JsonNode columnSchema = schemas.get(column.getKey());
            String unreadableType = unreadableType(column.getValue(), columnSchema);
            if (unreadableType != null) {
                unreadable.putIfAbsent(column.getKey(), unreadableType);
            } else {
                row.put(column.getKey(), columnSchema != null && DECIMAL.equals(columnSchema.path("name").asText())
                        ? decimal(column.getValue(), columnSchema) : scalar(column.getValue(), logicalType(columnSchema)));
            }
        }
        return row;
    }

    private static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";

    /**
     * Why a value cannot be rendered as text, or null when it can: binary data (the schema says {@code bytes} and
     * it is not a decimal), a struct such as a geometry or a map, or an array holding such values. Without a
     * schema, base64 binary looks like text; objects and nested arrays still show what they are.
     */
    static String unreadableType(JsonNode value, JsonNode columnSchema) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (columnSchema != null) {
            String type = columnSchema.path("type").asText("");
            String name = columnSchema.path("name").asText("");
            if ("bytes".equals(type) && !DECIMAL.equals(name)) {
                return name.isEmpty() ? "bytes" : name;
            }
            if ("struct".equals(type) || "map".equals(type)) {
                return name.isEmpty() ? type : name;
            }
        }
        if (value.isObject()) {
            return "struct";
        }
        if (value.isArray()) {
            for (JsonNode element : value) {
                if (!element.isValueNode()) {
                    return "array of structs";
                }
            }
        }
        if (value.isBinary()) {
            return "bytes";
        }
        return null;
    }

    private static String logicalType(JsonNode columnSchema) {
        return columnSchema == null ? null : columnSchema.path("name").asText(columnSchema.path("type").asText());
    }

    /** A Kafka Connect decimal: base64 of the unscaled two's-complement integer, the scale in the schema. */
    private static String decimal(JsonNode v, JsonNode columnSchema) {
        if (v.isNumber() || !v.isTextual()) {
            return v.asText();
        }
        int scale = columnSchema.path("parameters").path("scale").asInt(0);
        try {
            return new java.math.BigDecimal(new java.math.BigInteger(java.util.Base64.getDecoder().decode(v.asText())), scale).toPlainString();
        } catch (IllegalArgumentException e) {
            return v.asText(); // already a decimal string (decimal.handling.mode=string)
        }
    }

    private static String scalar(JsonNode v, String logicalType) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (logicalType != null && v.isNumber()) {
            switch (logicalType) {
                case "io.debezium.time.Date", "org.apache.kafka.connect.data.Date":
                    return LocalDate.ofEpochDay(v.asLong()).toString();
                case "io.debezium.time.Timestamp", "org.apache.kafka.connect.data.Timestamp":
                    return LocalDateTime.ofInstant(Instant.ofEpochMilli(v.asLong()), ZoneOffset.UTC).toString();
                case "io.debezium.time.MicroTimestamp":
                    return LocalDateTime.ofInstant(Instant.EPOCH.plusNanos(v.asLong() * 1000L), ZoneOffset.UTC).toString();
                case "io.debezium.time.NanoTimestamp":
                    return LocalDateTime.ofInstant(Instant.EPOCH.plusNanos(v.asLong()), ZoneOffset.UTC).toString();
                default:
                    break;
            }
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> {
                if (!item.isNull()) {
                    items.add(item.asText());
                }
            });
            return String.join(", ", items);
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }
}
