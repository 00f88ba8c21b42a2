package org.chartstream.app.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the pipeline's topics on any broker (embedded or not) and checks the one layout rule generations depend
 * on: every registered table's change topic has exactly one partition, so one ingest task reads a table's snapshot
 * in source order up to its last row (docs/ARCHITECTURE.md, "Generations").
 */
public final class PipelineTopics {
    /** A topic to create when missing. */
    public record Spec(String name, int partitions, boolean compacted) {
    }

    private PipelineTopics() {
    }

    /** Creates missing topics, then fails if any of {@code singlePartition} has more than one partition. */
    public static void ensure(String bootstrapServers, List<Spec> specs, Collection<String> singlePartition) {
        ensure(bootstrapServers, Map.of(), specs, singlePartition);
    }

    /** The same with further admin client settings, e.g. the transport security of an external broker. */
    public static void ensure(String bootstrapServers, Map<String, ?> clientOverrides, List<Spec> specs, Collection<String> singlePartition) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-topics");
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            for (Spec s : specs) {
                if (!existing.contains(s.name())) {
                    NewTopic t = new NewTopic(s.name(), s.partitions(), (short) 1);
                    if (s.compacted()) {
                        t.configs(Map.of("cleanup.policy", "compact"));
                    }
                    missing.add(t);
                }
            }
            for (var e : admin.createTopics(missing).values().entrySet()) {
                try {
                    e.getValue().get();
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("creating topic " + e.getKey() + " failed: " + ex.getCause(), ex.getCause());
                    }
                }
            }
            Map<String, Integer> partitions = new TreeMap<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try {
                    for (TopicDescription d : admin.describeTopics(singlePartition).allTopicNames().get().values()) {
                        partitions.put(d.name(), d.partitions().size());
                    }
                    break;
                } catch (ExecutionException ex) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("topics not visible after 30 s: " + singlePartition, ex.getCause());
                    }
                    Thread.sleep(50);
                }
            }
            List<String> wrong = multiPartitionTopics(partitions);
            if (!wrong.isEmpty()) {
                throw new IllegalStateException("change topics must have one partition (a table's snapshot must be read"
                        + " by one task to publish its generation atomically); these have more: " + wrong);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("listing topics failed: " + e.getCause(), e.getCause());
        }
    }

    /** The topics, with their partition counts, that break the one-partition rule. */
    static List<String> multiPartitionTopics(Map<String, Integer> partitions) {
        return partitions.entrySet().stream().filter(e -> e.getValue() != 1)
                .map(e -> e.getKey() + " (" + e.getValue() + ")").toList();
    }
}
