package org.chartstream.ingest.project;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latest image of one indexed row as the ingest side keeps it (excluded fields already removed): what a
 * re-index rebuilds from, how many chunks the row has and the newest generation it was written to (a snapshot
 * publication drops the images its snapshot did not see: those rows were deleted while nobody was watching).
 *
 * @param unresolved how many of the row's codes were shown without their meaning when it was last chunked (its
 *                   dictionary did not hold them): what the table's status counts
 * @param viaPatient for a row reaching its patient through an encounter, the patient it was last chunked under (what
 *                   the index of a patient's rows holds it under), else null
 */
public record RowImage(int chunks, long generation, String position, long commitTsMs, Map<String, String> row,
                       int unresolved, String viaPatient) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, String>> ROW = new TypeReference<>() {
    };

    public RowImage {
        row = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(row));
    }

    public RowImage(int chunks, long generation, String position, long commitTsMs, Map<String, String> row) {
        this(chunks, generation, position, commitTsMs, row, 0, null);
    }

    /** The image of {@code after} that may be kept: every column the projection does not exclude. */
    public static RowImage of(int chunks, long generation, String position, long commitTsMs, Map<String, String> after,
                              TableProjection projection) {
        Map<String, String> kept = new LinkedHashMap<>();
        after.forEach((column, value) -> {
            if (!projection.excluded().contains(column)) {
                kept.put(column, value);
            }
        });
        return new RowImage(chunks, generation, position, commitTsMs, kept);
    }

    public RowImage writtenTo(int newChunks, long newGeneration) {
        return new RowImage(newChunks, newGeneration, position, commitTsMs, row, unresolved, viaPatient);
    }

    /** As last rendered: with {@code codes} codes shown without meaning, under patient {@code patient} (via an encounter). */
    public RowImage rendered(int codes, String patient) {
        return new RowImage(chunks, generation, position, commitTsMs, row, codes, patient);
    }

    public String encode() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("chunks", chunks);
        out.put("generation", generation);
        out.put("position", position);
        out.put("commit_ts_ms", commitTsMs);
        out.put("row", row);
        if (unresolved > 0) {
            out.put("unresolved", unresolved);
        }
        if (viaPatient != null) {
            out.put("via_patient", viaPatient);
        }
        try {
            return JSON.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a row image", e);
        }
    }

    public static RowImage decode(String encoded) {
        try {
            JsonNode node = JSON.readTree(encoded);
            return new RowImage(node.path("chunks").asInt(), node.path("generation").asLong(),
                    node.path("position").asText(), node.path("commit_ts_ms").asLong(), JSON.convertValue(node.path("row"), ROW),
                    node.path("unresolved").asInt(0), node.hasNonNull("via_patient") ? node.get("via_patient").asText() : null);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt row image in the ingest state store", e);
        }
    }
}
