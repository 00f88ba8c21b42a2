package org.chartstream.runtime;

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
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the pipeline's topics on any broker (embedded or not) and checks the one layout rule generations depend
 * on: every registered table's change topic has exactly one partition, so one ingest task reads a table's snapshot
 * in source order up to its last row (docs/ARCHITECTURE.md, "Generations").
 *
 * <p>With a record size limit ({@code kafka.max-record-bytes}) every topic named is created, or set when it exists
 * already (a data directory from before the limit), with {@code max.message.bytes} = the limit plus
 * {@link #BATCH_OVERHEAD_BYTES}: a record a pipeline producer may write ({@code max.request.size} = the limit) is never
 * refused by the broker, so only the producer's own check, which names the record, can reject one.
 */
public final class PipelineTopics {
    /** Room for the record batch header and a few small records batched with a record of the largest size. */
    public static final int BATCH_OVERHEAD_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(PipelineTopics.class);

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
        ensure(bootstrapServers, clientOverrides, specs, singlePartition, 0);
    }

    /**
     * The same, also setting {@code max.message.bytes} to {@code maxRecordBytes} plus {@link #BATCH_OVERHEAD_BYTES}
     * on every topic of {@code specs} (0: the broker's default, nothing set).
     */
    public static void ensure(String bootstrapServers, Map<String, ?> clientOverrides, List<Spec> specs, Collection<String> singlePartition,
                              int maxRecordBytes) {
        Map<String, String> sizeConfig = maxRecordBytes > 0
                ? Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(maxMessageBytes(maxRecordBytes))) : Map.of();
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
                    Map<String, String> configs = new java.util.HashMap<>(sizeConfig);
                    if (s.compacted()) {
                        configs.put("cleanup.policy", "compact");
                    }
                    missing.add(t.configs(configs));
                }
            }
            setOnExisting(admin, specs.stream().map(Spec::name).filter(existing::contains).toList(), sizeConfig);
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

    /** The partition count of a topic just created or existing (waits up to 30 s for it to become visible). */
    public static int partitionCount(String bootstrapServers, Map<String, ?> clientOverrides, String topic) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-topics");
        long deadline = System.nanoTime() + 30_000_000_000L;
        try (Admin admin = Admin.create(p)) {
            while (true) {
                try {
                    return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
                } catch (ExecutionException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("describing topic " + topic + " failed: " + e.getCause(), e.getCause());
                    }
                    Thread.sleep(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        }
    }

    /** {@code max.message.bytes} for a record size limit. */
    public static int maxMessageBytes(int maxRecordBytes) {
        return maxRecordBytes + BATCH_OVERHEAD_BYTES;
    }

    /**
     * Sets the size limit on topics that exist already. A broker that refuses (no ALTER_CONFIGS right on a managed
     * cluster) is told in the log; the topics then keep the limit their operator gave them.
     */
    private static void setOnExisting(Admin admin, List<String> topics, Map<String, String> sizeConfig) throws InterruptedException {
        if (topics.isEmpty() || sizeConfig.isEmpty()) {
            return;
        }
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new java.util.HashMap<>();
        for (String topic : topics) {
            ops.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), sizeConfig.entrySet().stream()
                    .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET)).toList());
        }
        try {
            admin.incrementalAlterConfigs(ops).all().get();
        } catch (ExecutionException e) {
            LOG.warn("could not set {} on the existing pipeline topics: {}", sizeConfig, e.getCause().toString());
        }
    }

    /** The topics, with their partition counts, that break the one-partition rule. */
    static List<String> multiPartitionTopics(Map<String, Integer> partitions) {
        return partitions.entrySet().stream().filter(e -> e.getValue() != 1)
                .map(e -> e.getKey() + " (" + e.getValue() + ")").toList();
    }
}
