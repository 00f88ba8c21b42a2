package org.chartstream.ingest.reindex;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Control-topic record → {@link ReindexRequest}; anything else is logged (key only) and dropped. */
public final class ControlRequestParser implements Processor<String, String, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(ControlRequestParser.class);
    private ProcessorContext<String, Object> context;

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, String> record) {
        ReindexRequest.parse(record.key(), record.value()).ifPresentOrElse(
                r -> context.forward(new Record<>(r.tableKey(), (Object) r, record.timestamp())),
                () -> LOG.warn("ignoring a control request that is not '<source>:<table>' = 'reindex' (key {})", record.key()));
    }
}
