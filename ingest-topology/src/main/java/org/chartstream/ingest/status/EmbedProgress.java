package org.chartstream.ingest.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.TableEmbedding;
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
 * @param tables per table ({@code source:table}), what it has embedded of the newest generation it has written rows
 *               of: what a snapshot's progress counts while its generation is still staged
 */
public record EmbedProgress(int partition, String instance, long chunks, long events, long updatedMs,
                            Map<String, TableEmbedded> tables) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Chunks of one generation of a table embedded and written by this partition's task. */
    public record TableEmbedded(long generation, long chunks) {
        /** After {@code batchChunks} more chunks of {@code batchGeneration}: a newer generation starts the count again. */
        public TableEmbedded plus(long batchGeneration, long batchChunks) {
            if (batchGeneration < generation) {
                return this; // rows still written to the active generation while a newer one is staged
            }
            return new TableEmbedded(batchGeneration, (batchGeneration == generation ? chunks : 0) + batchChunks);
        }
    }

    public EmbedProgress {
        tables = Map.copyOf(tables);
    }


    public static String key(int partition) {
        return Topics.ingestProgressKey(partition);
    }

    public static EmbedProgress none(int partition) {
        return new EmbedProgress(partition, "", 0, 0, 0, Map.of());
    }

    /**
     * After a batch of {@code batchChunks} chunks and {@code batchEvents} events embedded by {@code by} at {@code nowMs};
     * {@code batchTables} holds, per table, the batch's chunks of each generation it wrote rows of.
     */
    public EmbedProgress plus(long batchChunks, long batchEvents, Map<String, Map<Long, Long>> batchTables, String by, long nowMs) {
        Map<String, TableEmbedded> next = new TreeMap<>(tables);
        batchTables.forEach((table, byGeneration) -> byGeneration.forEach((generation, n) ->
                next.put(table, next.getOrDefault(table, new TableEmbedded(generation, 0)).plus(generation, n))));
        return new EmbedProgress(partition, by, chunks + batchChunks, events + batchEvents, nowMs, next);
    }

    /** The wire record of the progress topic. */
    public EmbeddingProgress toRecord() {
        return EmbeddingProgress.newBuilder().setPartition(partition).setInstance(instance).setChunks(chunks).setEvents(events)
                .setUpdatedMs(updatedMs).setTables(wireTables()).build();
    }

    private Map<String, TableEmbedding> wireTables() {
        Map<String, TableEmbedding> out = new TreeMap<>();
        tables.forEach((table, t) -> out.put(table, TableEmbedding.newBuilder().setGeneration(t.generation()).setChunks(t.chunks()).build()));
        return out;
    }

    public String encode() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", partition);
        m.put("instance", instance);
        m.put("chunks", chunks);
        m.put("events", events);
        m.put("updated_ms", updatedMs);
        Map<String, long[]> perTable = new TreeMap<>();
        tables.forEach((table, t) -> perTable.put(table, new long[]{t.generation(), t.chunks()}));
        m.put("tables", perTable);
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
            Map<String, TableEmbedded> tables = new TreeMap<>();
            n.path("tables").properties().forEach(e -> tables.put(e.getKey(),
                    new TableEmbedded(e.getValue().path(0).asLong(), e.getValue().path(1).asLong())));
            return new EmbedProgress(n.path("partition").asInt(), n.path("instance").asText(""), n.path("chunks").asLong(),
                    n.path("events").asLong(), n.path("updated_ms").asLong(), tables);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an embedding progress record", e);
        }
    }
}
