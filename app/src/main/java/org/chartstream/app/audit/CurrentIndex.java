package org.chartstream.app.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.chartstream.core.store.HybridStore;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.replica.IndexContract;
import org.chartstream.replica.IndexMaterializer;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.StoreSelection;
import org.chartstream.schemas.Topics;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * The index as it stands now, for checking evidence from another process. A shared DocumentDB store
 * ({@code store.kind=documentdb}) is read directly. A Lucene index belongs to the process that serves it, so a
 * private replica is materialised from the index log (the log every store is a view of) into a temporary
 * directory, up to the log's end when the check began, and removed on close.
 */
public final class CurrentIndex implements AutoCloseable {
    private static final Duration REPLICA_TIMEOUT = Duration.ofMinutes(30);

    private final HybridStore store;
    private final Path replicaDir;

    private CurrentIndex(HybridStore store, Path replicaDir) {
        this.store = store;
        this.replicaDir = replicaDir;
    }

    public static CurrentIndex open(ChartstreamConfig config, String bootstrapServers, Map<String, ?> clientOverrides,
                                    Consumer<String> progress) throws IOException {
        if (config.string("store.kind").equals("documentdb")) {
            int dimension = ModelDescriptor.byId(config.string("embedding.model")).dimension();
            return new CurrentIndex(StoreSelection.open(config, null, dimension), null);
        }
        Path dir = Files.createTempDirectory("chartstream-audit-replica");
        LuceneHybridStore replica = LuceneHybridStore.open(dir);
        try {
            // the model's dimension and id, so that an event of other vectors in the log is skipped instead of fixing the replica's
            ModelDescriptor model = ModelDescriptor.byId(config.string("embedding.model"));
            materialize(replica, new IndexContract(model.dimension(), model.id()), bootstrapServers, clientOverrides, progress);
            return new CurrentIndex(replica, dir);
        } catch (RuntimeException e) {
            replica.close();
            delete(dir);
            throw e;
        }
    }

    private static void materialize(HybridStore replica, IndexContract contract, String bootstrapServers, Map<String, ?> clientOverrides, Consumer<String> progress) {
        Map<TopicPartition, Long> end = endOffsets(bootstrapServers, clientOverrides);
        long events = end.values().stream().mapToLong(Long::longValue).sum();
        progress.accept("materializing a replica of " + Topics.INDEX + " (" + events + " log records) to compare against");
        long start = System.nanoTime();
        try (IndexMaterializer materializer = new IndexMaterializer(bootstrapServers, clientOverrides, Topics.INDEX, replica, Duration.ofSeconds(1),
                contract, r -> progress.accept(r.describe())).start()) {
            long lastReport = System.nanoTime();
            long deadline = System.nanoTime() + REPLICA_TIMEOUT.toNanos();
            while (!caughtUp(materializer.committedPositions(), end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica did not reach the end of " + Topics.INDEX + " within "
                            + REPLICA_TIMEOUT.toMinutes() + " min (" + materializer.appliedEvents() + "/" + events + " records applied)");
                }
                if (materializer.failure() != null) {
                    throw new IllegalStateException("cannot materialize the index log: " + materializer.failure().getMessage(), materializer.failure());
                }
                if (System.nanoTime() - lastReport > 2_000_000_000L) {
                    lastReport = System.nanoTime();
                    progress.accept("replica: " + materializer.appliedEvents() + "/" + events + " log records applied");
                }
                sleep(100);
            }
        }
        progress.accept(String.format("replica ready in %.1f s", (System.nanoTime() - start) / 1e9));
    }

    static boolean caughtUp(Map<Integer, Long> committed, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> e.getValue() == 0 || committed.getOrDefault(e.getKey().partition(), 0L) >= e.getValue());
    }

    private static Map<TopicPartition, Long> endOffsets(String bootstrapServers, Map<String, ?> clientOverrides) {
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            var infos = c.partitionsFor(Topics.INDEX, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + Topics.INDEX + " does not exist on " + bootstrapServers + ": nothing was indexed yet");
            }
            List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(Topics.INDEX, i.partition())).toList();
            return c.endOffsets(tps, Duration.ofSeconds(30));
        }
    }

    public HybridStore store() {
        return store;
    }

    @Override
    public void close() {
        store.close();
        if (replicaDir != null) {
            delete(replicaDir);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind holds no more than the index log does
        }
    }

    private static void sleep(long ms) {
        java.util.concurrent.locks.LockSupport.parkNanos(ms * 1_000_000L); // the callers' loops are bounded by deadlines
    }
}
