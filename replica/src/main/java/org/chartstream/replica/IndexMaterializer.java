package org.chartstream.replica;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.core.store.HybridStore;
import org.chartstream.schemas.unreadable.IndexEventRecords;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialises the index log the ingest role writes into a {@link HybridStore}: the query role's store (and the
 * audit's private replica). Polled events are applied to the store and made searchable as soon as the log is caught
 * up ({@link HybridStore#refresh}); they are committed, durably, together with the log offsets reached (and the
 * generation markers still waiting for other partitions, see {@link IndexLogApplier}) at most {@code maxCommitDelay}
 * after the first of them was applied, so a restart resumes exactly where the store's last commit left off. Store
 * writes are idempotent by id, so replaying the log rebuilds the same index.
 *
 * <p>A record it cannot read (not an {@code IndexEvent}, or one whose parts do not fit, see {@link IndexLogRecords})
 * goes to its {@link UnreadableRecords} (the runtime dead-letters and counts it) and is skipped: the position past
 * it is part of the next store commit, so a restart does not meet it again.
 */
public final class IndexMaterializer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexMaterializer.class);
    private static final String OFFSET_KEY = "offset.";
    /** The name it reports skipped records under (dead letter stage, metric tag). */
    public static final String CONSUMER_NAME = "index-materializer";
    private static final long PROGRESS_EVERY_NANOS = Duration.ofSeconds(5).toNanos();

    private final String topic;
    private final Duration maxCommitDelay;
    private final HybridStore store;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final UnreadableRecords unreadable;
    private final IndexContract contract;
    private final Thread thread;
    private final AtomicLong appliedEvents = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong skippedRecords = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicReference<Map<Integer, Long>> committedPositions = new AtomicReference<>(Map.of());
    private volatile boolean running = true;

    public IndexMaterializer(String bootstrapServers, String topic, HybridStore store) {
        this(bootstrapServers, topic, store, Duration.ofSeconds(1));
    }

    /** @param maxCommitDelay longest time applied events wait for a durable store commit */
    public IndexMaterializer(String bootstrapServers, String topic, HybridStore store, Duration maxCommitDelay) {
        this(bootstrapServers, Map.of(), topic, store, maxCommitDelay);
    }

    /** @param clientOverrides further consumer settings, e.g. the transport security of an external broker */
    public IndexMaterializer(String bootstrapServers, Map<String, ?> clientOverrides, String topic, HybridStore store,
                             Duration maxCommitDelay) {
        this(bootstrapServers, clientOverrides, topic, store, maxCommitDelay, IndexContract.ANY,
                r -> LOG.warn("{} (no dead letter: none configured)", r.describe()));
    }

    /**
     * @param contract   the vector dimension and embedding model the store holds (an event with other vectors is
     *                   unreadable; a store committed for another model is refused at once)
     * @param unreadable where records it skips are reported (dead letters, counts)
     * @throws IllegalStateException when the store was committed for another embedding model than the contract's
     */
    public IndexMaterializer(String bootstrapServers, Map<String, ?> clientOverrides, String topic, HybridStore store,
                             Duration maxCommitDelay, IndexContract contract, UnreadableRecords unreadable) {
        contract.requireSameModel(store.checkpoint(), "the index materialised from " + topic);
        this.unreadable = unreadable;
        this.contract = contract;
        this.maxCommitDelay = maxCommitDelay;
        this.topic = topic;
        this.store = store;
        Properties p = KafkaClientProperties.readCommittedConsumer(bootstrapServers, clientOverrides, "chartstream-index-materializer");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
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

    /** Durable store commits since it started. */
    public long commits() {
        return commits.get();
    }

    /** Records it could not read and skipped since it started. */
    public long skippedRecords() {
        return skippedRecords.get();
    }

    /**
     * Per index-log partition, the offset up to which the store has committed: from its start, where the store's last
     * commit left off (empty only until the log's partitions are known).
     */
    public Map<Integer, Long> committedPositions() {
        return committedPositions.get();
    }

    /** Its index-log consumer, for metrics binders: only the thread-safe {@code metrics()} may be called on it. */
    public org.apache.kafka.clients.consumer.Consumer<?, ?> consumer() {
        return consumer;
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
            IndexLogApplier applier = new IndexLogApplier(store, partitions.size(), checkpoint);
            for (TopicPartition tp : partitions) {
                String offset = checkpoint.get(OFFSET_KEY + tp.topic() + "." + tp.partition());
                if (offset == null) {
                    consumer.seekToBeginning(List.of(tp));
                } else {
                    consumer.seek(tp, Long.parseLong(offset));
                }
            }
            committedPositions.set(positions(partitions)); // where the store's last commit left off, before anything is applied
            long firstUncommitted = 0;
            boolean uncommitted = false;
            boolean unrefreshed = false;
            RebuildProgress rebuild = store.rebuildReason().map(reason -> startRebuild(reason, partitions)).orElse(null);
            long lastProgress = System.nanoTime();
            while (running) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(Duration.ofMillis(100));
                } catch (WakeupException e) {
                    if (running) {
                        throw e;
                    }
                    break;
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    String problem = apply(applier, r);
                    if (problem == null) {
                        appliedEvents.incrementAndGet();
                    } else {
                        unreadable.skipped(new UnreadableRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value(),
                                CONSUMER_NAME, problem));
                        skippedRecords.incrementAndGet();
                    }
                    if (!uncommitted) {
                        firstUncommitted = System.nanoTime();
                    }
                    uncommitted = true; // a skipped record's offset is committed too, so a restart does not read it again
                    unrefreshed = true;
                }
                boolean progressDue = System.nanoTime() - lastProgress > PROGRESS_EVERY_NANOS;
                if (rebuild != null && (records.isEmpty() || progressDue)) {
                    long replayed = replayedRecords(partitions, rebuild);
                    boolean done = rebuild.done(replayed);
                    if (done || progressDue) {
                        LOG.warn("{}", rebuild.line(replayed, System.nanoTime()));
                        lastProgress = System.nanoTime();
                    }
                    rebuild = done ? null : rebuild;
                }
                StoreStep step = StoreStep.after(uncommitted, unrefreshed, records.isEmpty() || atLogEnd(partitions),
                        Duration.ofNanos(System.nanoTime() - firstUncommitted), maxCommitDelay);
                if (step == StoreStep.COMMIT) {
                    commit(partitions, applier);
                    uncommitted = false;
                    unrefreshed = false;
                } else if (step == StoreStep.REFRESH) {
                    store.refresh();
                    unrefreshed = false;
                }
            }
            if (uncommitted) {
                commit(partitions, applier); // a clean stop leaves nothing to replay
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

    /**
     * True when the last fetch left nothing more to read on any partition: the events just applied are the newest,
     * so they are made searchable now rather than after the next poll has waited for its timeout in vain.
     */
    private boolean atLogEnd(List<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isEmpty() || lag.getAsLong() > 0) {
                return false;
            }
        }
        return true;
    }

    /** Commits the applied events with the log offsets reached and the markers still waiting. */
    private void commit(List<TopicPartition> partitions, IndexLogApplier applier) {
        Map<String, String> next = new HashMap<>();
        Map<Integer, Long> positions = positions(partitions);
        positions.forEach((partition, position) -> next.put(OFFSET_KEY + topic + "." + partition, Long.toString(position)));
        next.putAll(applier.pendingMarkerCheckpoint());
        if (!contract.modelId().isEmpty()) {
            next.put(IndexContract.MODEL_CHECKPOINT_KEY, contract.modelId());
        }
        store.commit(next);
        committedPositions.set(Map.copyOf(positions));
        commits.incrementAndGet();
    }

    private Map<Integer, Long> positions(List<TopicPartition> partitions) {
        Map<Integer, Long> positions = new HashMap<>();
        partitions.forEach(tp -> positions.put(tp.partition(), consumer.position(tp)));
        return positions;
    }

    /**
     * Applies one record; returns why it cannot be applied, or null. The store refusing an event as an argument (a
     * vector of another dimension than it holds) is the event's fault, not the store's: it is skipped like bytes that
     * are not an event. Any other store failure stops the materializer.
     */
    private String apply(IndexLogApplier applier, ConsumerRecord<byte[], byte[]> r) {
        IndexEventRecords.Read read = IndexLogRecords.read(r.value(), contract);
        if (!read.readable()) {
            return read.problem();
        }
        try {
            applier.apply(read.event(), r.partition());
            return null;
        } catch (IllegalArgumentException e) {
            return "the store refuses the event (" + e.getClass().getSimpleName() + ")"; // its message may name a row key
        }
    }

    /** Offsets count log records, transaction markers included: the goal is the log end, not an event count. */
    private RebuildProgress startRebuild(String reason, List<TopicPartition> partitions) {
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
        long target = 0;
        for (Map.Entry<TopicPartition, Long> end : consumer.endOffsets(partitions).entrySet()) {
            target += end.getValue() - begin.getOrDefault(end.getKey(), 0L);
        }
        LOG.warn("{}: replaying {} log records", reason, target);
        return new RebuildProgress(Map.copyOf(begin), target, System.nanoTime());
    }

    private long replayedRecords(List<TopicPartition> partitions, RebuildProgress rebuild) {
        long replayed = 0;
        for (TopicPartition tp : partitions) {
            replayed += consumer.position(tp) - rebuild.begin().getOrDefault(tp, 0L);
        }
        return replayed;
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
