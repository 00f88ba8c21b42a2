package org.chartstream.schemas.unreadable;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.serde.AvroSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead-letters the records a long-running reader of an internal topic skips, counts them and logs where they lay
 * (never their content). {@link #skipped} returns once the broker has the dead letter (or after a bounded wait), so
 * a reader that commits its position after the skip never moves past a record whose dead letter was not written:
 * the dead letter is at least once (a crash between the two writes it again on restart).
 */
public final class DeadLetterSink implements UnreadableRecords, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterSink.class);
    private static final long SEND_TIMEOUT_MS = 10_000;

    private final String topic;
    private final KafkaProducer<byte[], DeadLetter> producer;
    private final UnreadableRecordCounts counts;

    /** @param clientOverrides further producer settings, e.g. the transport security of an external broker */
    public DeadLetterSink(String bootstrapServers, Map<String, ?> clientOverrides, String deadLetterTopic, UnreadableRecordCounts counts) {
        this.topic = deadLetterTopic;
        this.counts = counts;
        Properties p = new Properties();
        p.putAll(clientOverrides);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chartstream-unreadable-dead-letters");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(SEND_TIMEOUT_MS));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(SEND_TIMEOUT_MS));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), AvroSerde.of(DeadLetter.class));
    }

    public UnreadableRecordCounts counts() {
        return counts;
    }

    @Override
    public void skipped(UnreadableRecord r) {
        counts.increment(r);
        LOG.warn(r.describe());
        try {
            producer.send(new ProducerRecord<>(topic, r.key(), r.toDeadLetter(System.currentTimeMillis())))
                    .get(SEND_TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // the reader goes on either way: one lost dead letter must not stop the index; the count and the log remain
            LOG.error("could not dead-letter the record at {}-{} offset {}: {}", r.topic(), r.partition(), r.offset(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }
}
