package org.chartstream.ingest.publish;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.HybridStore;
import org.chartstream.store.RowRef;
import org.chartstream.store.StoredChunk;
import org.chartstream.store.TableRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialises the index log into a {@link HybridStore}. Each polled batch is applied and committed to the store
 * together with the log offsets it reached (and the generation markers still waiting for other partitions), so a
 * restart resumes exactly where the store's last commit left off. Store writes are idempotent by id, so replaying
 * the log rebuilds the same index.
 */
public final class IndexMaterializer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexMaterializer.class);
    private static final String OFFSET_KEY = "offset.";
    private static final String MARKER_KEY = "marker.";

    private final String topic;
    private final HybridStore store;
    private final KafkaConsumer<String, IndexEvent> consumer;
    private final Thread thread;
    private final AtomicLong appliedEvents = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    public IndexMaterializer(String bootstrapServers, String topic, HybridStore store) {
        this.topic = topic;
        this.store = store;
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "chartstream-index-materializer");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        this.thread = new Thread(this::run, "index-materializer");
        this.thread.setDaemon(true);
    }

    public IndexMaterializer start() {
        thread.start();
        return this;
    }

    public long appliedEvents() {
        return appliedEvents.get();
    }

    public long commits() {
        return commits.get();
    }

    /** The error that stopped the materializer, or null while it is healthy. */
    public Throwable failure() {
        return failure.get();
    }

    private void run() {
        try {
            List<TopicPartition> partitions = awaitPartitions();
            consumer.assign(partitions);
            Map<String, String> checkpoint = store.checkpoint();
            Map<String, Set<Integer>> pendingMarkers = readPendingMarkers(checkpoint);
            for (TopicPartition tp : partitions) {
                String offset = checkpoint.get(OFFSET_KEY + tp.topic() + "." + tp.partition());
                if (offset == null) {
                    consumer.seekToBeginning(List.of(tp));
                } else {
                    consumer.seek(tp, Long.parseLong(offset));
                }
            }
            while (running) {
                ConsumerRecords<String, IndexEvent> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                for (ConsumerRecord<String, IndexEvent> r : records) {
                    apply(r.value(), r.partition(), partitions.size(), pendingMarkers);
                }
                Map<String, String> next = new HashMap<>();
                for (TopicPartition tp : partitions) {
                    next.put(OFFSET_KEY + tp.topic() + "." + tp.partition(), Long.toString(consumer.position(tp)));
                }
                pendingMarkers.forEach((k, v) -> next.put(MARKER_KEY + k,
                        v.stream().map(String::valueOf).collect(Collectors.joining(","))));
                store.commit(next);
                commits.incrementAndGet();
            }
        } catch (WakeupException e) {
            if (running) {
                failure.set(e);
            }
        } catch (RuntimeException e) {
            failure.set(e);
            LOG.error("index materializer stopped: {}", e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private List<TopicPartition> awaitPartitions() {
        while (running) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
            if (infos != null && !infos.isEmpty()) {
                List<TopicPartition> tps = new ArrayList<>();
                infos.forEach(i -> tps.add(new TopicPartition(i.topic(), i.partition())));
                return tps;
            }
            sleep(200);
        }
        throw new WakeupException();
    }

    private void apply(IndexEvent e, int partition, int partitionCount, Map<String, Set<Integer>> pendingMarkers) {
        if (e == null) {
            return;
        }
        appliedEvents.incrementAndGet();
        switch (e.getKind()) {
            case UPSERT_ROW -> store.upsertRow(new RowRef(e.getSourceId(), e.getTableName(), e.getRowKey()),
                    e.getGeneration(), e.getChunks().stream().map(IndexMaterializer::toStored).toList());
            case DELETE_ROW -> store.deleteRow(new RowRef(e.getSourceId(), e.getTableName(), e.getRowKey()));
            case MARKER -> {
                if (e.getMarker() == null || e.getMarker().getState() != GenerationState.PUBLISHED) {
                    return;
                }
                String id = e.getSourceId() + ":" + e.getTableName() + ":" + e.getGeneration();
                Set<Integer> seen = pendingMarkers.computeIfAbsent(id, k -> new TreeSet<>());
                seen.add(partition);
                if (seen.size() >= partitionCount) {
                    pendingMarkers.remove(id);
                    store.publish(new TableRef(e.getSourceId(), e.getTableName()), e.getGeneration());
                }
            }
            default -> throw new IllegalStateException("unknown index event kind " + e.getKind());
        }
    }

    static StoredChunk toStored(ChunkRecord c) {
        float[] v = new float[c.getVector().size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = c.getVector().get(i);
        }
        return new StoredChunk(c.getChunkId(), new RowRef(c.getSourceId(), c.getTableName(), c.getRowKey()),
                c.getChunkIndex(), c.getChunkCount(), c.getGeneration(), c.getText(), v, c.getPatientKey(),
                c.getSourcePosition(), c.getCommitTsMs(), c.getModelId());
    }

    private static Map<String, Set<Integer>> readPendingMarkers(Map<String, String> checkpoint) {
        Map<String, Set<Integer>> pending = new HashMap<>();
        checkpoint.forEach((k, v) -> {
            if (k.startsWith(MARKER_KEY) && !v.isEmpty()) {
                Set<Integer> seen = new TreeSet<>();
                for (String p : v.split(",")) {
                    seen.add(Integer.parseInt(p));
                }
                pending.put(k.substring(MARKER_KEY.length()), seen);
            }
        });
        return pending;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WakeupException();
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
