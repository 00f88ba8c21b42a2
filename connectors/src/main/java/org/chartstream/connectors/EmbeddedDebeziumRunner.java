package org.chartstream.connectors;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.schemas.limits.FieldCap;
import org.chartstream.schemas.DeadLetter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one Debezium embedded engine and writes its change events to Kafka, at least once.
 *
 * <p>The engine ({@code DebeziumEngine.create(Json.class)}, JSON key and value strings) runs on its own single-thread
 * executor. Every batch goes through a {@link DebeziumEngine.ChangeConsumer} that sends each event with an idempotent
 * {@code KafkaProducer<String,String>} ({@code acks=all}) to the event's destination topic (key = the JSON key,
 * value = the JSON value or null for a tombstone), flushes, waits until Kafka acknowledged every record, and only
 * then marks the records processed and the batch finished; the engine writes the offsets after each batch
 * ({@link DebeziumConfigs}). Debezium's offsets therefore only ever cover events that are in Kafka: a crash
 * re-delivers (duplicates), it never loses. An event without a source position does not move them
 * ({@link KafkaHandOver#movesOffsets}). If a send fails the batch is not committed and the
 * engine stops with the error ({@link #state()} {@code FAILED}, {@link #failure()}).
 *
 * <p>One row never stops capture. Before the first write every text field of a change over the field cap
 * ({@link FieldCap}, {@code ingest.max-field-bytes}) is truncated and named in a {@link DeadLetter} (stage
 * {@value #STAGE_FIELD_CAP}: table, row key, field; never the value); the row is still written. A change that Kafka
 * still refuses as too large ({@code max.request.size}) is dead-lettered (stage {@value #STAGE_WRITE}) instead of
 * written, and the batch commits, so the Debezium offsets move past it.
 *
 * <p>Health data never reaches the log: only counts, topic names and Kafka offsets are logged.
 */
public final class EmbeddedDebeziumRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDebeziumRunner.class);
    /** Dead-letter stage of a field truncated to the cap. */
    public static final String STAGE_FIELD_CAP = "cdc.field-cap";
    /** Dead-letter stage of a change Kafka refused to take (too large even after the field cap). */
    public static final String STAGE_WRITE = "cdc.write";
    /** The field cap when none is given: 1 MiB. */
    public static final int DEFAULT_MAX_FIELD_BYTES = 1 << 20;

    /** Life cycle of a runner. */
    public enum State {
        /** Built, {@link #start()} not called yet. */
        NEW,
        /** Engine submitted, the connector task has not started yet (it is connecting or validating). */
        STARTING,
        /** The connector task runs: snapshotting or streaming. */
        RUNNING,
        /** Closed, or the engine ended without an error. */
        STOPPED,
        /** The engine ended with an error; see {@link #failure()}. */
        FAILED
    }

    private final String name;
    private final Properties engineProperties;
    private final Properties producerProperties;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final HandOverCounts counts = new HandOverCounts();
    private final String notificationTopic;
    private final FieldCap fieldCap;
    private final String topicPrefix;
    private final CountDownLatch taskStarted = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);

    private volatile KafkaProducer<String, String> producer;
    private volatile KafkaProducer<String, byte[]> deadLetterProducer;
    private volatile DebeziumEngine<ChangeEvent<String, String>> engine;
    private volatile ExecutorService executor;

    /**
     * @param engineProperties Debezium embedded-engine properties (see {@link DebeziumConfigs#forSource}); must hold
     *                         {@code name} and {@code bootstrap.servers}
     * @param producerOverrides extra producer settings (may be empty), e.g. {@code max.request.size}; the
     *                          at-least-once settings ({@code acks=all}, idempotence) cannot be overridden
     * @param fieldCap          the most UTF-8 bytes one field of a change may carry when written
     */
    public EmbeddedDebeziumRunner(Properties engineProperties, Map<String, ?> producerOverrides, FieldCap fieldCap) {
        Objects.requireNonNull(engineProperties, "engineProperties");
        this.fieldCap = Objects.requireNonNull(fieldCap, "fieldCap");
        this.topicPrefix = engineProperties.getProperty("topic.prefix", "");
        this.engineProperties = new Properties();
        this.engineProperties.putAll(engineProperties);
        this.name = required(engineProperties, "name");
        this.notificationTopic = engineProperties.getProperty("notification.sink.topic.name", "");
        String bootstrap = required(engineProperties, "bootstrap.servers");
        this.producerProperties = producerProperties(name, bootstrap, producerOverrides == null ? Map.of() : producerOverrides);
    }

    /** A runner with the default field cap. */
    public EmbeddedDebeziumRunner(Properties engineProperties, Map<String, ?> producerOverrides) {
        this(engineProperties, producerOverrides, new FieldCap(DEFAULT_MAX_FIELD_BYTES));
    }

    /** A runner with default producer settings. */
    public EmbeddedDebeziumRunner(Properties engineProperties) {
        this(engineProperties, Map.of());
    }

    /** A runner for one source: {@link DebeziumConfigs#forSource} plus default producer settings. */
    public static EmbeddedDebeziumRunner forSource(SourceConnection src, String topicPrefix, Path offsetsDir,
                                                   String bootstrapServers) {
        return new EmbeddedDebeziumRunner(DebeziumConfigs.forSource(src, topicPrefix, offsetsDir, bootstrapServers));
    }

    static Properties producerProperties(String name, String bootstrap, Map<String, ?> overrides) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-cdc-" + name);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.putAll(overrides);
        // not overridable: these make the hand-over to Kafka at-least-once and ordered per partition
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    /** Starts the producer and the engine; returns at once (see {@link #awaitTaskStarted}). */
    public synchronized void start() {
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            throw new IllegalStateException("runner " + name + " already started (state " + state.get() + ")");
        }
        try {
            createParentDirectory("offset.storage.file.filename");
            createParentDirectory("schema.history.internal.file.filename");
            producer = new KafkaProducer<>(producerProperties);
            Properties deadLetterProperties = new Properties();
            deadLetterProperties.putAll(producerProperties);
            deadLetterProperties.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-cdc-dead-letters-" + name);
            deadLetterProperties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            deadLetterProducer = new KafkaProducer<>(deadLetterProperties);
            engine = DebeziumEngine.create(Json.class)
                    .using(engineProperties)
                    .using(new Callbacks())
                    .using(this::completed)
                    .notifying(new KafkaHandOver(name, fieldCap, topicPrefix, notificationTopic, producer, deadLetterProducer, counts))
                    .build();
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "chartstream-cdc-" + name);
                t.setDaemon(true);
                return t;
            });
            executor.execute(engine);
            LOG.info("CDC runner {} started", name);
        } catch (RuntimeException | IOException e) {
            failure.compareAndSet(null, e);
            state.set(State.FAILED);
            finished.countDown();
            closeQuietly();
            throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        }
    }

    private void createParentDirectory(String key) throws IOException {
        String file = engineProperties.getProperty(key);
        if (file != null) {
            Path parent = Path.of(file).toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        }
    }

    /** Current state. */
    public State state() {
        return state.get();
    }

    /** True while the runner is starting or running and has not failed. */
    public boolean isHealthy() {
        State s = state.get();
        return (s == State.STARTING || s == State.RUNNING) && failure.get() == null;
    }

    /** The error the engine (or the hand-over to Kafka) ended with, if any. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Change records (including tombstones) acknowledged by Kafka and committed to Debezium. */
    public long recordsProduced() {
        return counts.recordsProduced.get();
    }

    /** Debezium notifications (snapshot progress) acknowledged by Kafka; not counted in {@link #recordsProduced()}. */
    public long notificationsProduced() {
        return counts.notificationsProduced.get();
    }

    /** Tombstones among {@link #recordsProduced()}. */
    public long tombstonesProduced() {
        return counts.tombstonesProduced.get();
    }

    /** Fields truncated to the field cap (each named in a dead letter). */
    public long fieldsTruncated() {
        return counts.fieldsTruncated.get();
    }

    /** Changes Kafka refused as too large: dead-lettered instead of written, and passed by the offsets. */
    public long changesSkipped() {
        return counts.changesSkipped.get();
    }

    /** Batches acknowledged by Kafka and marked finished. */
    public long batchesCommitted() {
        return counts.batchesCommitted.get();
    }

    /** {@code topic-partition@offset} of the last record Kafka acknowledged, or {@code -}. */
    public String lastAcknowledged() {
        return counts.lastAcknowledged;
    }

    /** The engine name ({@code name} property). */
    public String name() {
        return name;
    }

    /** Waits until the connector task has started; false on timeout or if the engine ended first. */
    public boolean awaitTaskStarted(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (taskStarted.await(50, TimeUnit.MILLISECONDS)) {
                return state.get() == State.RUNNING;
            }
            if (finished.getCount() == 0) {
                return false;
            }
        }
        return false;
    }

    /** Waits until the engine has ended (after {@link #close()} or a failure). */
    public boolean awaitFinished(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the engine (it commits the offsets of every batch that Kafka acknowledged), then closes the producer.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        State before = state.get();
        if (before == State.NEW) {
            state.set(State.STOPPED);
            finished.countDown();
            return;
        }
        closeQuietly();
        if (failure.get() == null) {
            state.set(State.STOPPED);
        }
        LOG.info("CDC runner {} closed: {} records in {} batches, last acknowledged {}", name,
                counts.recordsProduced.get(), counts.batchesCommitted.get(), counts.lastAcknowledged);
    }

    private void closeQuietly() {
        DebeziumEngine<?> e = engine;
        if (e != null) {
            try {
                e.close();
            } catch (IllegalStateException alreadyDown) {
                LOG.debug("CDC runner {}: engine already shut down", name);
            } catch (IOException | RuntimeException ex) {
                LOG.warn("CDC runner {}: engine close failed: {}", name, ex.toString());
            }
        }
        ExecutorService ex = executor;
        if (ex != null) {
            ex.shutdown();
            try {
                if (!ex.awaitTermination(30, TimeUnit.SECONDS)) {
                    LOG.warn("CDC runner {}: engine thread did not stop within 30 s", name);
                    ex.shutdownNow();
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                ex.shutdownNow();
            }
        }
        for (KafkaProducer<?, ?> p : java.util.Arrays.asList(producer, deadLetterProducer)) { // either may be null
            if (p != null) {
                try {
                    p.close(Duration.ofSeconds(10));
                } catch (RuntimeException pe) {
                    LOG.warn("CDC runner {}: producer close failed: {}", name, pe.toString());
                }
            }
        }
        finished.countDown();
    }

    private void completed(boolean success, String message, Throwable error) {
        if (!success || error != null) {
            Throwable t = error != null ? error : new IllegalStateException(message);
            failure.compareAndSet(null, t);
            state.set(State.FAILED);
            // message and error come from Debezium/Kafka, not from row content
            LOG.error("CDC runner {} failed after {} records: {}", name, counts.recordsProduced.get(), t.toString());
        } else {
            state.compareAndSet(State.RUNNING, State.STOPPED);
            state.compareAndSet(State.STARTING, State.STOPPED);
            LOG.info("CDC runner {} engine stopped after {} records", name, counts.recordsProduced.get());
        }
        finished.countDown();
    }

    private final class Callbacks implements DebeziumEngine.ConnectorCallback {
        @Override
        public void taskStarted() {
            state.compareAndSet(State.STARTING, State.RUNNING);
            taskStarted.countDown();
            LOG.info("CDC runner {}: connector task started", name);
        }

        @Override
        public void taskStopped() {
            LOG.info("CDC runner {}: connector task stopped", name);
        }
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("engine property '" + key + "' is required");
        }
        return v;
    }
}
