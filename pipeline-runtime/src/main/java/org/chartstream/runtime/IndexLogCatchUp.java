package org.chartstream.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.chartstream.query.catchup.IndexCatchUp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link IndexCatchUp} of a query process: the goal is the index log's end offsets as a {@code read_committed}
 * reader sees them (the last stable offsets: an ingest transaction still open is not waited for) when a task starts;
 * the replica has caught up once the materializer's committed positions reach them on every partition. Committed,
 * not merely searchable: a little later (at most the materializer's commit delay, 1 s), never too early. When the
 * broker cannot be asked, the task waits and asks again at most every {@link #RETRY_NANOS}.
 */
final class IndexLogCatchUp implements IndexCatchUp, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexLogCatchUp.class);
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long ASK_TIMEOUT_MS = 5_000;
    private final Admin admin;
    private final String topic;
    private final Supplier<Map<Integer, Long>> replicaPositions;

    /** @param replicaPositions per partition, the offset up to which the replica has committed */
    IndexLogCatchUp(String bootstrapServers, Map<String, String> security, String topic, Supplier<Map<Integer, Long>> replicaPositions) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-index-catch-up");
        this.admin = Admin.create(p);
        this.topic = topic;
        this.replicaPositions = replicaPositions;
    }

    @Override
    public BooleanSupplier sinceNow() {
        Map<Integer, Long> asked = logEnd();
        return new BooleanSupplier() {
            private Map<Integer, Long> goal = asked;
            private long nextAsk = System.nanoTime() + RETRY_NANOS;

            @Override
            public boolean getAsBoolean() {
                if (goal == null && System.nanoTime() >= nextAsk) {
                    goal = logEnd();
                    nextAsk = System.nanoTime() + RETRY_NANOS;
                }
                return goal != null && reached(replicaPositions.get(), goal);
            }
        };
    }

    /** Whether {@code positions} are at or past {@code goal} on every partition of the goal. */
    static boolean reached(Map<Integer, Long> positions, Map<Integer, Long> goal) {
        return goal.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }

    /** The log's last stable offset per partition, or null when the broker did not say within the timeout. */
    private Map<Integer, Long> logEnd() {
        try {
            TopicDescription d = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(ASK_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            d.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<Integer, Long> end = new HashMap<>();
            admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                    .get(ASK_TIMEOUT_MS, TimeUnit.MILLISECONDS).forEach((tp, info) -> end.put(tp.partition(), info.offset()));
            return end;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("cannot read the end offsets of {} ({}); answers wait until it can be read", topic, e.getClass().getSimpleName());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
