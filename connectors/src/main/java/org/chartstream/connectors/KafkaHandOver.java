package org.chartstream.connectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.debezium.embedded.EmbeddedEngineChangeEvent;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.Header;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.connect.source.SourceRecord;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.limits.FieldCap;
import org.chartstream.schemas.serde.AvroSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner's hand-over of Debezium's batches to Kafka: produce, flush, wait for every acknowledgement, then commit,
 * so offsets only cover what Kafka holds (see {@link EmbeddedDebeziumRunner}). A field over the cap is truncated and
 * a change Kafka refuses as too large is skipped, each named in a dead letter written before the batch commits.
 */
final class KafkaHandOver implements DebeziumEngine.ChangeConsumer<ChangeEvent<String, String>> {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaHandOver.class);
    private static final AvroSerde<DeadLetter> DEAD_LETTERS = AvroSerde.of(DeadLetter.class);
    private static final ObjectMapper KEYS = new ObjectMapper();
    private final String name;
    private final FieldCap fieldCap;
    private final String topicPrefix;
    private final String notificationTopic;
    private final KafkaProducer<String, String> producer;
    private final KafkaProducer<String, byte[]> deadLetterProducer;
    private final HandOverCounts counts;

    KafkaHandOver(String name, FieldCap fieldCap, String topicPrefix, String notificationTopic, KafkaProducer<String, String> producer,
                  KafkaProducer<String, byte[]> deadLetterProducer, HandOverCounts counts) {
        this.name = name;
        this.fieldCap = fieldCap;
        this.topicPrefix = topicPrefix;
        this.notificationTopic = notificationTopic;
        this.producer = producer;
        this.deadLetterProducer = deadLetterProducer;
        this.counts = counts;
    }

    @Override
    public void handleBatch(List<ChangeEvent<String, String>> records,
                            DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer)
            throws InterruptedException {
        if (records.isEmpty()) {
            committer.markBatchFinished();
            return;
        }
        KafkaProducer<String, String> p = producer;
        List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
        List<DeadLetter> deadLetters = new ArrayList<>();
        long tombstones = 0;
        long notifications = 0;
        for (ChangeEvent<String, String> r : records) {
            FieldCap.Result capped = fieldCap.apply(r.value());
            for (FieldCap.Truncated t : capped.truncated()) {
                deadLetters.add(deadLetter(r, EmbeddedDebeziumRunner.STAGE_FIELD_CAP, fieldCap.reason(tableOf(r.destination()), rowKey(r.key()), t)));
                LOG.warn("CDC runner {}: field '{}' of table {} truncated to {} bytes (dead letter written)", name,
                        t.field(), tableOf(r.destination()), fieldCap.maxBytes());
            }
            ProducerRecord<String, String> pr =
                    new ProducerRecord<>(r.destination(), r.partition(), r.key(), capped.value());
            for (Header<Object> h : r.<Object>headers()) {
                if (h.getKey() != null && h.getValue() != null) {
                    pr.headers().add(h.getKey(), String.valueOf(h.getValue()).getBytes(StandardCharsets.UTF_8));
                }
            }
            if (r.value() == null) {
                tombstones++;
            } else if (r.destination().equals(notificationTopic)) {
                notifications++;
            }
            acks.add(p.send(pr));
        }
        p.flush();
        RecordMetadata last = null;
        long skipped = 0;
        for (int i = 0; i < acks.size(); i++) {
            try {
                last = acks.get(i).get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RecordTooLargeException)) {
                    // nothing of this batch is committed: Debezium re-delivers it after a restart
                    throw new IllegalStateException("CDC runner " + name + ": Kafka did not acknowledge a record of a "
                            + records.size() + "-record batch: " + e.getCause(), e.getCause());
                }
                ChangeEvent<String, String> r = records.get(i);
                deadLetters.add(deadLetter(r, EmbeddedDebeziumRunner.STAGE_WRITE, "table " + tableOf(r.destination()) + " row " + rowKey(r.key())
                        + ": Kafka refused the change as too large (" + e.getCause().getMessage() + "), also after"
                        + " ingest.max-field-bytes (" + fieldCap.maxBytes() + "); it was not written and capture went on"));
                LOG.error("CDC runner {}: a change of table {} is too large for Kafka; dead-lettered and skipped", name,
                        tableOf(r.destination()));
                skipped++;
            }
        }
        writeDeadLetters(deadLetters);
        for (ChangeEvent<String, String> r : records) {
            if (movesOffsets(((EmbeddedEngineChangeEvent<?, ?, ?>) r).sourceRecord())) {
                committer.markProcessed(r);
            }
        }
        committer.markBatchFinished();
        long total = counts.recordsProduced.addAndGet(records.size() - notifications - skipped);
        counts.changesSkipped.addAndGet(skipped);
        counts.tombstonesProduced.addAndGet(tombstones);
        counts.notificationsProduced.addAndGet(notifications);
        counts.batchesCommitted.incrementAndGet();
        if (last != null) {
            counts.lastAcknowledged = last.topic() + "-" + last.partition() + "@" + last.offset();
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("CDC runner {}: batch of {} records acknowledged ({} in total), last at {}", name,
                    records.size(), total, counts.lastAcknowledged);
        }
    }

    /** Writes the batch's dead letters and waits for them: the batch commits only once they are in Kafka. */
    private void writeDeadLetters(List<DeadLetter> deadLetters) throws InterruptedException {
        if (deadLetters.isEmpty()) {
            return;
        }
        List<Future<RecordMetadata>> written = new ArrayList<>(deadLetters.size());
        for (DeadLetter d : deadLetters) {
            String key = d.getKey() == null ? null : StandardCharsets.UTF_8.decode(d.getKey().duplicate()).toString();
            written.add(deadLetterProducer.send(new ProducerRecord<>(Topics.DEAD_LETTER, key, DEAD_LETTERS.serialize(d))));
        }
        deadLetterProducer.flush();
        for (Future<RecordMetadata> f : written) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("CDC runner " + name + ": a dead letter was not acknowledged: " + e.getCause(), e.getCause());
            }
        }
        counts.fieldsTruncated.addAndGet(deadLetters.stream().filter(d -> EmbeddedDebeziumRunner.STAGE_FIELD_CAP.equals(d.getStage())).count());
    }

    @Override
    public boolean supportsTombstoneEvents() {
        return true;
    }

    /**
     * Whether handing {@code record} over moves Debezium's offsets to the record's position. Not when it has none:
     * Debezium's notice that a snapshot started is sent before the connector has a position and carries an empty
     * offset. Written as the source's offset (a kill -9 before the next batch), it reads on restart as a connector
     * past its snapshot: PostgreSQL streams on without ever reading the tables, MariaDB refuses to start ("Source
     * offset 'file' parameter is missing"). Without it the restart snapshots again, as it must.
     */
    static boolean movesOffsets(SourceRecord record) {
        Map<String, ?> offset = record.sourceOffset();
        return offset != null && !offset.isEmpty();
    }

    /** A dead letter for a change: its topic and key (the primary key), the stage and the reason, no value. */
    private static DeadLetter deadLetter(ChangeEvent<String, String> r, String stage, String reason) {
        return DeadLetter.newBuilder().setSourceTopic(r.destination()).setPartition(-1).setOffset(-1)
                .setKey(r.key() == null ? null : ByteBuffer.wrap(r.key().getBytes(StandardCharsets.UTF_8)))
                .setValue(null).setStage(stage).setReason(reason).setTsMs(System.currentTimeMillis()).build();
    }

    /** {@code <schema>.<table>} of a change topic {@code <prefix>.<schema>.<table>}. */
    private String tableOf(String topic) {
        return !topicPrefix.isEmpty() && topic.startsWith(topicPrefix + ".") ? topic.substring(topicPrefix.length() + 1) : topic;
    }

    /** The primary-key values of a Debezium JSON key joined by {@code |}, as the ingest side names rows. */
    static String rowKey(String keyJson) {
        if (keyJson == null) {
            return "(no key)";
        }
        try {
            JsonNode key = KEYS.readTree(keyJson);
            JsonNode payload = key.has("payload") && key.has("schema") ? key.get("payload") : key;
            List<String> parts = new ArrayList<>();
            payload.fields().forEachRemaining(e -> parts.add(e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
            return String.join("|", parts);
        } catch (JsonProcessingException | RuntimeException e) {
            return "(unreadable key)";
        }
    }
}
