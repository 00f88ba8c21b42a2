package org.chartstream.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.schemas.ReplicaStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Publishes a query process's {@link StoreStatus} on {@code chartstream.store.status} (compacted, key: the process)
 * every second in which it changed, and at least every {@value #REFRESH_MS} ms, so that a reader can tell a live
 * process from one that stopped. {@code chartstream status} reads it from the broker: it need not run where the
 * query process's directory is.
 */
final class StoreStatusPublisher implements AutoCloseable {
    static final long REFRESH_MS = 10_000;
    private final KafkaProducer<String, ReplicaStatus> producer;
    private final ScheduledExecutorService timer;
    private final Supplier<StoreStatus> status;
    private final Consumer<String> progress;
    private StoreStatus lastSent;

    StoreStatusPublisher(String bootstrapServers, Map<String, String> security, Supplier<StoreStatus> status, Consumer<String> progress) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-store-status");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), AvroSerde.of(ReplicaStatus.class));
        this.status = status;
        this.progress = progress;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "store-status");
            thread.setDaemon(true);
            return thread;
        });
    }

    StoreStatusPublisher start() {
        timer.scheduleWithFixedDelay(this::publishIfDue, 0, 1, TimeUnit.SECONDS);
        return this;
    }

    private void publishIfDue() {
        try {
            StoreStatus now = status.get();
            if (now.sameViewAs(lastSent) && now.updatedMs() - lastSent.updatedMs() < REFRESH_MS) {
                return;
            }
            producer.send(new ProducerRecord<>(Topics.STORE_STATUS, now.instance(), now.toRecord()), (meta, e) -> {
                if (e != null) {
                    progress.accept("could not publish the store status: " + e.getMessage());
                }
            });
            lastSent = now;
        } catch (RuntimeException e) {
            progress.accept("could not publish the store status: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        producer.close(Duration.ofSeconds(2));
    }
}
