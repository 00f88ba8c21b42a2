package org.chartstream.ingest;

import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.embed.TextChunker;
import org.chartstream.ingest.normalize.ChangeNormalizer;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.publish.IndexEventPartitioner;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Debezium topics → normalise → project, chunk, batch-embed → the index log ({@code chartstream.index}).
 * Bad events go to the dead-letter topic. Stores materialise from the index log (see {@code IndexMaterializer}).
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
        topology.addProcessor("normalize",
                () -> new ChangeNormalizer(settings.sources(), "index-rows", "dead-letters"), "debezium-changes");
        topology.addProcessor("index-rows",
                () -> new IndexingProcessor(sources, chunker, embedder, settings.batchChunks(), settings.linger()),
                "normalize");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(IndexingProcessor.PATIENTS_STORE), Serdes.String(), Serdes.String()), "index-rows");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(IndexingProcessor.GENERATIONS_STORE), Serdes.String(), Serdes.String()), "index-rows");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(IndexingProcessor.BUFFER_STORE), Serdes.Long(), AvroSerde.of(IndexEvent.class)), "index-rows");
        topology.addSink("index-log", settings.indexTopic(), new StringSerializer(), AvroSerde.of(IndexEvent.class),
                new IndexEventPartitioner(), "index-rows");
        topology.addSink("dead-letters", settings.deadLetterTopic(), new StringSerializer(), AvroSerde.of(DeadLetter.class), "normalize");
        return topology;
    }

}
