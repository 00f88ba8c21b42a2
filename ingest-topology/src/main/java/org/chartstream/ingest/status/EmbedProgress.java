package org.chartstream.ingest.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.Topics;

/**
 * What one embedding task (one partition of the ingest repartition topic) has embedded, published on the ingest
 * progress topic (compacted, key {@link #key}) after each of its batches as an {@link EmbeddingProgress}
 * ({@link #toRecord}); the task's changelogged store keeps it as JSON ({@link #encode}). The counts belong to the partition and
 * survive a move to another instance (they are kept in the task's changelogged store); {@code instance} names the
 * process that embedded the latest batch.
 *
 * @param chunks chunks this partition's task has embedded and written to the index log since the topic was created (a row
 *               written to the active and to a staged generation counts in both)
 * @param events index events it has forwarded to the index log (rows, deletes and markers)
 */
public record EmbedProgress(int partition, String instance, long chunks, long events, long updatedMs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static String key(int partition) {
        return Topics.ingestProgressKey(partition);
    }

    public static EmbedProgress none(int partition) {
        return new EmbedProgress(partition, "", 0, 0, 0);
    }

    /** After a batch of {@code batchChunks} chunks and {@code batchEvents} events embedded by {@code by} at {@code nowMs}. */
    public EmbedProgress plus(long batchChunks, long batchEvents, String by, long nowMs) {
        return new EmbedProgress(partition, by, chunks + batchChunks, events + batchEvents, nowMs);
    }

    /** The wire record of the progress topic. */
    public EmbeddingProgress toRecord() {
        return EmbeddingProgress.newBuilder().setPartition(partition).setInstance(instance).setChunks(chunks).setEvents(events)
                .setUpdatedMs(updatedMs).build();
    }

    public String encode() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", partition);
        m.put("instance", instance);
        m.put("chunks", chunks);
        m.put("events", events);
        m.put("updated_ms", updatedMs);
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static EmbedProgress decode(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || !n.isObject() || !n.path("partition").canConvertToInt()) {
                throw new IllegalArgumentException("not an embedding progress record");
            }
            return new EmbedProgress(n.path("partition").asInt(), n.path("instance").asText(""), n.path("chunks").asLong(),
                    n.path("events").asLong(), n.path("updated_ms").asLong());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an embedding progress record", e);
        }
    }
}
