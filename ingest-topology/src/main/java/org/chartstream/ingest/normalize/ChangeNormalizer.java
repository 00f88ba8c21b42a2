package org.chartstream.ingest.normalize;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.schemas.limits.FieldCap;
import org.chartstream.core.store.RowRef;
import org.chartstream.ingest.project.TableProjection;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.RowChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debezium topic record → {@link RowChange} keyed by row, or a {@link DeadLetter} naming the problem
 * (malformed envelope, unregistered source or table). A column whose value cannot be rendered as text (binary,
 * struct, geometry) is left out of the row, which is still indexed, and named in a dead letter at stage
 * {@code ingest.normalize.column} when the projection would have let it through. A Debezium notification that a
 * registered table's snapshot scan completed becomes a {@link TableScanCompleted}; other notifications are dropped.
 * A truncate of a registered table becomes a {@link TableTruncated}. A text field over the field cap
 * ({@code ingest.max-field-bytes}; a change from a Debezium outside chartstream may carry one) is truncated, the row
 * is still indexed, and a dead letter at stage {@code ingest.normalize.field-cap} names table, row key and field.
 * Never throws: one bad event must not stop the topology.
 */
public final class ChangeNormalizer implements Processor<String, String, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeNormalizer.class);
    private final List<SourceRegistration> sources;
    private final String rowsChild;
    private final String deadLetterChild;
    private final FieldCap fieldCap;
    private ProcessorContext<String, Object> context;

    public ChangeNormalizer(List<SourceRegistration> sources, String rowsChild, String deadLetterChild, FieldCap fieldCap) {
        this.fieldCap = fieldCap;
        // longest prefix first, so "ehr.v2" wins over "ehr"
        this.sources = sources.stream().sorted(Comparator.comparingInt((SourceRegistration s) -> s.topicPrefix().length()).reversed()).toList();
        this.rowsChild = rowsChild;
        this.deadLetterChild = deadLetterChild;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, String> record) {
        String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("?");
        try {
            SourceRegistration source = sourceOf(topic)
                    .orElseThrow(() -> new MalformedChangeException("topic " + topic + " belongs to no registered source"));
            if (topic.equals(source.notificationTopic())) {
                DebeziumNotificationParser.tableScanCompleted(source, record.value()).ifPresent(scan ->
                        context.forward(new Record<String, Object>(scan.tableKey(), scan, record.timestamp()), rowsChild));
                return;
            }
            FieldCap.Result capped = fieldCap.apply(record.value());
            DebeziumEnvelopeParser.Parsed parsed = DebeziumEnvelopeParser.read(source, topic, record.key(), capped.value());
            if (parsed.truncation() != null) {
                TableTruncated truncated = parsed.truncation();
                if (source.table(truncated.table()).isEmpty()) {
                    throw new MalformedChangeException("table " + truncated.schema() + "." + truncated.table()
                            + " is not registered for source " + source.sourceId());
                }
                context.forward(new Record<String, Object>(truncated.tableKey(), truncated, record.timestamp()), rowsChild);
                return;
            }
            RowChange change = parsed.change();
            TableProjection projection = source.table(change.getTableName()).orElseThrow(() -> new MalformedChangeException(
                    "table " + change.getSchemaName() + "." + change.getTableName() + " is not registered for source " + source.sourceId()));
            List<String> skipped = parsed.unreadableColumns().entrySet().stream().filter(c -> projection.allows(c.getKey()))
                    .map(c -> "'" + c.getKey() + "' (" + c.getValue() + ")").toList();
            if (!skipped.isEmpty()) {
                // the row is still indexed, without the columns; the dead letter tells the operator which ones
                deadLetter(record, topic, "ingest.normalize.column", "table " + change.getSchemaName() + "." + change.getTableName()
                        + " of source " + source.sourceId() + ": " + (skipped.size() == 1 ? "column " : "columns ") + String.join(", ", skipped)
                        + " cannot be rendered as text and was left out of the indexed row", false);
            }
            for (FieldCap.Truncated t : capped.truncated()) {
                deadLetter(record, topic, "ingest.normalize.field-cap", fieldCap.reason(change.getSchemaName() + "."
                        + change.getTableName() + " of source " + source.sourceId(), change.getRowKey(), t), true);
            }
            String key = RowRef.id(change.getSourceId(), change.getTableName(), change.getRowKey());
            context.forward(new Record<String, Object>(key, change, record.timestamp()), rowsChild);
        } catch (MalformedChangeException | IllegalArgumentException e) {
            deadLetter(record, topic, "ingest.normalize", e.getMessage(), false);
        }
    }

    /**
     * @param namesRow the reason names a row key (which may identify a patient): it is not logged, and the value is
     *                 not copied (the original stays on the change topic at the offset named)
     */
    private void deadLetter(Record<String, String> record, String topic, String stage, String reason, boolean namesRow) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        LOG.warn("dead-lettering change event from {} partition {} offset {} at stage {}: {}", topic,
                meta == null ? -1 : meta.partition(), meta == null ? -1 : meta.offset(), stage, namesRow ? "see the dead letter" : reason);
        DeadLetter dl = DeadLetter.newBuilder().setSourceTopic(topic)
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(bytes(record.key())).setValue(namesRow ? null : bytes(record.value()))
                .setStage(stage).setReason(reason).setTsMs(System.currentTimeMillis()).build();
        context.forward(new Record<String, Object>(record.key(), dl, record.timestamp()), deadLetterChild);
    }

    private Optional<SourceRegistration> sourceOf(String topic) {
        return sources.stream().filter(s -> topic.startsWith(s.topicPrefix() + ".")).findFirst();
    }

    private static java.nio.ByteBuffer bytes(String s) {
        return s == null ? null : java.nio.ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
