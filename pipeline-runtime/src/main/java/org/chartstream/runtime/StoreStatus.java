package org.chartstream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What readers of a running pipeline's store see, written by the pipeline to {@code <run dir>/store-status.json}
 * every second: per table the active generation and its rows, and per index-log partition the offset the store has
 * committed up to (with the log's end offset, the materializer's lag).
 */
public record StoreStatus(long updatedMs, String indexTopic, Map<String, Long> activeGenerations,
                          Map<String, Long> rows, Map<Integer, Long> committedPositions) {
    public static final String FILE_NAME = "store-status.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public void write(Path dir) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("updated_ms", updatedMs);
        root.put("index_topic", indexTopic);
        ObjectNode tables = root.putObject("tables");
        activeGenerations.forEach((table, generation) -> tables.putObject(table).put("active", generation)
                .put("rows", rows.getOrDefault(table, 0L)));
        ObjectNode positions = root.putObject("index_positions");
        committedPositions.forEach((partition, offset) -> positions.put(Integer.toString(partition), offset));
        Path tmp = dir.resolve(FILE_NAME + ".tmp");
        Files.writeString(tmp, JSON.writeValueAsString(root));
        Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static Optional<StoreStatus> read(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode root = JSON.readTree(file.toFile());
        Map<String, Long> active = new TreeMap<>();
        Map<String, Long> rows = new TreeMap<>();
        root.path("tables").fields().forEachRemaining(e -> {
            active.put(e.getKey(), e.getValue().path("active").asLong());
            rows.put(e.getKey(), e.getValue().path("rows").asLong());
        });
        Map<Integer, Long> positions = new LinkedHashMap<>();
        root.path("index_positions").fields().forEachRemaining(e -> positions.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
        return Optional.of(new StoreStatus(root.path("updated_ms").asLong(), root.path("index_topic").asText(), active, rows, positions));
    }
}
