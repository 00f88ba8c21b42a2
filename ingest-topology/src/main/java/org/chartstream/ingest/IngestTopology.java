package org.chartstream.ingest;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.connectors.limits.FieldCap;
import org.chartstream.core.model.TextChunker;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.normalize.ChangeNormalizer;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.publish.IndexEventPartitioner;
import org.chartstream.ingest.reindex.ControlRequestParser;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Debezium topics → normalise → project, chunk, batch-embed → the index log ({@code chartstream.index}).
 * Bad events go to the dead-letter topic. The query role's stores materialise from the index log (the replica
 * module's {@code IndexMaterializer}).
 * Re-index requests arrive on the control topic; per-table status leaves on the status topic.
 *
 * <p>Each registered table's change topic must have one partition (see docs/ARCHITECTURE.md, "Generations"):
 * one task then reads a table's snapshot in source order up to the row Debezium marks as its last, which is what
 * makes publishing a generation after that row correct.
 */
public final class IngestTopology {
    private IngestTopology() {
    }

    public static Topology build(IngestSettings settings, TextChunker chunker, PassageEmbedder embedder) {
        Map<String, SourceRegistration> sources = settings.sources().stream()
                .collect(Collectors.toMap(SourceRegistration::sourceId, Function.identity()));
        Pattern topics = Pattern.compile(settings.sources().stream()
                .map(s -> Pattern.quote(s.topicPrefix()) + "\\..+").collect(Collectors.joining("|")));

        Topology topology = new Topology();
        topology.addSource("debezium-changes", new StringDeserializer(), new StringDeserializer(), topics);
        topology.addSource("ingest-control", new StringDeserializer(), new StringDeserializer(), settings.controlTopic());
        topology.addProcessor("normalize",
                () -> new ChangeNormalizer(settings.sources(), "index-rows", IndexingProcessor.DEAD_LETTER_CHILD,
                        new FieldCap(settings.maxFieldBytes())), "debezium-changes");
        topology.addProcessor("control-requests", ControlRequestParser::new, "ingest-control");
        topology.addProcessor("index-rows",
                () -> new IndexingProcessor(sources, chunker, embedder, settings.flushRule(), settings.maxRecordBytes()),
                "normalize", "control-requests");
        for (String store : List.of(IndexingProcessor.PATIENTS_STORE, IndexingProcessor.GENERATIONS_STORE,
                IndexingProcessor.ROWS_STORE, IndexingProcessor.STATUS_STORE, IndexingProcessor.REINDEX_STORE,
                IndexingProcessor.COLUMNS_STORE)) {
            topology.addStateStore(Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(store), Serdes.String(), Serdes.String()), "index-rows");
        }
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(IndexingProcessor.BUFFER_STORE), Serdes.Long(), AvroSerde.of(IndexEvent.class)), "index-rows");
        topology.addSink(IndexingProcessor.INDEX_CHILD, settings.indexTopic(), new StringSerializer(), AvroSerde.of(IndexEvent.class),
                new IndexEventPartitioner(), "index-rows");
        topology.addSink(IndexingProcessor.STATUS_CHILD, settings.statusTopic(), new StringSerializer(), new StringSerializer(), "index-rows");
        topology.addSink(IndexingProcessor.DEAD_LETTER_CHILD, settings.deadLetterTopic(), new StringSerializer(),
                AvroSerde.of(DeadLetter.class), "normalize", "index-rows");
        return topology;
    }

}
