package org.chartstream.query.reply;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reply events through a producer of their own: idempotent (a retry inside the producer never writes an event twice,
 * and events of one request stay in order), {@code acks=all}, not transactional, sent at once ({@code linger.ms=0}).
 */
public final class KafkaReplySender implements ReplySender {
    private final KafkaProducer<String, byte[]> producer;
    private final AvroSerde<ReplyEvent> serde = AvroSerde.of(ReplyEvent.class);

    private KafkaReplySender(KafkaProducer<String, byte[]> producer) {
        this.producer = producer;
    }

    /**
     * From a Kafka Streams application's configuration: the settings its own producer gets (bootstrap servers,
     * security, {@code producer.}-prefixed overrides such as {@code max.request.size}), without its transaction.
     */
    public static ReplySender fromStreamsConfig(Map<String, Object> streamsConfig) {
        Set<String> producerKeys = ProducerConfig.configNames();
        Map<String, Object> props = new HashMap<>();
        streamsConfig.forEach((k, v) -> {
            if (producerKeys.contains(k) && v != null) {
                props.put(k, v);
            }
        });
        streamsConfig.forEach((k, v) -> {
            if (k.startsWith(StreamsConfig.PRODUCER_PREFIX) && v != null) {
                String key = k.substring(StreamsConfig.PRODUCER_PREFIX.length());
                if (producerKeys.contains(key)) {
                    props.put(key, v);
                }
            }
        });
        props.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, streamsConfig.get(StreamsConfig.APPLICATION_ID_CONFIG) + "-replies");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaReplySender(new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()));
    }

    @Override
    public void send(String topic, ReplyEvent event, Headers headers, Consumer<Exception> delivered) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, null, event.getTsMs(), event.getRequestId(),
                serde.serialize(topic, event), headers);
        try {
            producer.send(record, (metadata, failure) -> delivered.accept(failure));
        } catch (RuntimeException e) { // refused before it was queued (closed producer, buffer full past max.block.ms)
            delivered.accept(e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
