package org.chartstream.ingest.reindex;

import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.ingest.normalize.TableDropped;
import org.chartstream.schemas.IngestControl;
import org.chartstream.schemas.serde.AvroSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Control-topic record ({@link IngestControl}) → {@link ReindexRequest} or {@link TableDropped}; a record that is not one, or carries a
 * command this version does not know, is logged (offset and key only) and dropped.
 */
public final class ControlRequestParser implements Processor<String, byte[], String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(ControlRequestParser.class);
    private final AvroSerde<IngestControl> serde = AvroSerde.of(IngestControl.class);
    private ProcessorContext<String, Object> context;

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        IngestControl control = record.value() == null ? null : serde.tryDeserialize(record.value());
        if (control == null) {
            LOG.warn("ignoring a control record that is not an IngestControl (offset {}, key {})", offset(), record.key());
            return;
        }
        Optional<TableDropped> dropped = TableDropped.of(control);
        if (dropped.isPresent()) {
            context.forward(new Record<>(dropped.get().tableKey(), (Object) dropped.get(), record.timestamp()));
            return;
        }
        ReindexRequest.of(control).ifPresentOrElse(
                r -> context.forward(new Record<>(r.tableKey(), (Object) r, record.timestamp())),
                () -> LOG.warn("ignoring a control request this version does not carry out: {} (offset {}, key {})",
                        control.getCommand(), offset(), record.key()));
    }

    private long offset() {
        return context.recordMetadata().map(RecordMetadata::offset).orElse(-1L);
    }
}
