package org.chartstream.app.pipeline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;
import org.chartstream.schemas.EmbeddingProgress;

/**
 * What `chartstream status` prints about the embedding tasks: per repartition partition the instance that embedded
 * its latest batch, the chunks and events it has written to the index log and the events still waiting for it; and
 * per instance the chunks of the partitions it holds now.
 */
public final class EmbeddingReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EmbeddingReport() {
    }

    /** Chunks per instance, over the partitions whose latest batch it embedded. */
    public static Map<String, Long> chunksPerInstance(Map<Integer, EmbeddingProgress> progress) {
        Map<String, Long> out = new TreeMap<>();
        progress.values().forEach(p -> out.merge(p.getInstance(), p.getChunks(), Long::sum));
        return out;
    }

    /** @param pending per partition, events of the repartition topic its task has not read yet */
    public static String text(Map<Integer, EmbeddingProgress> progress, Map<Integer, Long> pending) {
        StringBuilder out = new StringBuilder(String.format("%-10s %-60s %10s %10s %8s%n", "embedding", "instance", "chunks", "events", "pending"));
        withPending(progress, pending).values().forEach(p -> out.append(String.format("%-10s %-60s %10d %10d %8d%n",
                "part " + p.getPartition(), p.getInstance().isEmpty() ? "-" : p.getInstance(), p.getChunks(), p.getEvents(),
                pending.getOrDefault(p.getPartition(), 0L))));
        chunksPerInstance(progress).forEach((instance, chunks) ->
                out.append("instance ").append(instance).append(": ").append(chunks).append(" chunks embedded\n"));
        return out.toString();
    }

    public static ObjectNode json(Map<Integer, EmbeddingProgress> progress, Map<Integer, Long> pending) {
        ObjectNode root = JSON.createObjectNode();
        var partitions = root.putArray("partitions");
        withPending(progress, pending).values().forEach(p -> partitions.addObject().put("partition", p.getPartition())
                .put("instance", p.getInstance()).put("chunks", p.getChunks()).put("events", p.getEvents())
                .put("pending", pending.getOrDefault(p.getPartition(), 0L)).put("updated_ms", p.getUpdatedMs()));
        ObjectNode instances = root.putObject("instances");
        chunksPerInstance(progress).forEach(instances::put);
        return root;
    }

    /** Every partition with progress or pending events; one that has embedded nothing yet shows zeros. */
    private static Map<Integer, EmbeddingProgress> withPending(Map<Integer, EmbeddingProgress> progress, Map<Integer, Long> pending) {
        Map<Integer, EmbeddingProgress> all = new TreeMap<>(progress);
        pending.keySet().forEach(p -> all.putIfAbsent(p, EmbeddingProgress.newBuilder().setPartition(p).setInstance("")
                .setChunks(0).setEvents(0).setUpdatedMs(0).build()));
        return all;
    }
}
