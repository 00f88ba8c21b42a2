package org.chartstream.ingest;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.chartstream.schemas.limits.FieldCap;
import org.chartstream.core.model.TextChunker;
import org.chartstream.ingest.embed.EmbeddingBuffer;
import org.chartstream.ingest.embed.EmbeddingPace;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.embed.VectorCache;
import org.chartstream.ingest.normalize.ChangeNormalizer;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.ingest.publish.IndexEventPartitioner;
import org.chartstream.ingest.publish.OwnPartition;
import org.chartstream.ingest.reindex.ControlRequestParser;
import org.chartstream.ingest.state.PlannerState;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;

/**
 * Debezium topics → normalise → plan (project, keep row images, plan generations, chunk) → the ingest repartition
 * topic ({@code chartstream.ingest.embed}, {@code ingest.partitions} partitions, keyed by row) → embed in batches →
 * the index log ({@code chartstream.index}). Two sub-topologies: the planner task that owns a table's order, and one
 * embedding task per repartition partition, which Kafka Streams spreads over the ingest instances of its group.
 * Bad events go to the dead-letter topic. The query role's stores materialise from the index log (the replica
 * module's {@code IndexMaterializer}). Re-index requests arrive on the control topic; per-table status leaves on the
 * status topic, per-partition embedding progress on the progress topic.
 *
 * <p>Each registered table's change topic must have one partition (see docs/ARCHITECTURE.md, "Generations"):
 * one task then reads a table's snapshot in source order up to the row Debezium marks as its last, which is what
 * makes publishing a generation after that row correct. The planner writes that generation's marker to every
 * repartition partition after the rows; the embedding task of partition p writes index-log partition p only, so on
 * every index-log partition the marker still follows the partition's rows.
 */
public final class IngestTopology {
    /** The consumer name under which the embedding tasks count the repartition topic's records they skip. */
    public static final String EMBEDDING_CONSUMER_NAME = EmbeddingProcessor.UNREADABLE_STAGE;

    private IngestTopology() {
    }

    public static Topology build(IngestSettings settings, TextChunker chunker, PassageEmbedder embedder) {
        return build(settings, chunker, embedder, new UnreadableRecordCounts());
    }

    /** @param unreadable where the embedding tasks count the records of the repartition topic they skip */
    public static Topology build(IngestSettings settings, TextChunker chunker, PassageEmbedder embedder, UnreadableRecordCounts unreadable) {
        Map<String, SourceRegistration> sources = settings.sources().stream()
                .collect(Collectors.toMap(SourceRegistration::sourceId, Function.identity()));
        Pattern topics = Pattern.compile(settings.sources().stream()
                .map(s -> Pattern.quote(s.topicPrefix()) + "\\..+").collect(Collectors.joining("|")));

        Topology topology = new Topology();
        topology.addSource("debezium-changes", new StringDeserializer(), new StringDeserializer(), topics);
        topology.addSource("ingest-control", new StringDeserializer(), new ByteArrayDeserializer(), settings.controlTopic());
        topology.addProcessor("normalize",
                () -> new ChangeNormalizer(settings.sources(), "index-rows", IndexingProcessor.DEAD_LETTER_CHILD,
                        new FieldCap(settings.maxFieldBytes())), "debezium-changes");
        topology.addProcessor("control-requests", ControlRequestParser::new, "ingest-control");
        topology.addProcessor("index-rows",
                () -> new IndexingProcessor(sources, chunker, embedder, settings.flushRule(), settings.maxRecordBytes()),
                "normalize", "control-requests");
        for (String store : PlannerState.PER_ROW_STORES) {
            topology.addStateStore(Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(store), Serdes.String(), Serdes.String()), "index-rows");
        }
        // one entry per table, rewritten for every row of it: cached, so that a transaction writes each table's entry to
        // the changelog once at its commit instead of once per row (a snapshot wrote as many status and generation
        // records as rows); reads within the transaction see the cached value, and nothing uncommitted was ever visible
        for (String store : PlannerState.PER_TABLE_STORES) {
            topology.addStateStore(Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(store), Serdes.String(), Serdes.String()).withCachingEnabled(), "index-rows");
        }
        topology.addSink(IndexingProcessor.EMBED_CHILD, settings.embedTopic(), new StringSerializer(), AvroSerde.of(IndexEvent.class),
                new IndexEventPartitioner(), "index-rows");
        topology.addSink(IndexingProcessor.STATUS_CHILD, settings.statusTopic(), new StringSerializer(),
                AvroSerde.of(IngestTableStatus.class), "index-rows");
        topology.addSink(IndexingProcessor.DEAD_LETTER_CHILD, settings.deadLetterTopic(), new StringSerializer(),
                AvroSerde.of(DeadLetter.class), "normalize", "index-rows");

        topology.addSource("embedding-input", new ByteArrayDeserializer(), new ByteArrayDeserializer(), settings.embedTopic());
        AtomicInteger openEmbeddingTasks = new AtomicInteger();
        EmbeddingPace pace = new EmbeddingPace(EmbeddingBuffer.EMBEDDING_BUDGET, () -> System.nanoTime() / 1_000_000,
                new VectorCache(settings.vectorCacheTexts()));
        topology.addProcessor("embed", () -> new EmbeddingProcessor(embedder, settings.flushRule(), settings.instance(),
                openEmbeddingTasks, pace, unreadable), "embedding-input");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(EmbeddingProcessor.BUFFER_STORE), Serdes.Long(), AvroSerde.of(IndexEvent.class)), "embed");
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(EmbeddingProcessor.PROGRESS_STORE), Serdes.String(), Serdes.String()), "embed");
        for (int p = 0; p < settings.partitions(); p++) {
            topology.addSink(EmbeddingProcessor.indexChild(p), settings.indexTopic(), new StringSerializer(),
                    AvroSerde.of(IndexEvent.class), new OwnPartition(p, settings.partitions()), "embed");
        }
        topology.addSink(EmbeddingProcessor.PROGRESS_CHILD, settings.progressTopic(), new StringSerializer(),
                AvroSerde.of(EmbeddingProgress.class), "embed");
        // a sink of its own: one shared with the planner's processors would join both into one sub-topology
        topology.addSink(EmbeddingProcessor.DEAD_LETTER_CHILD, settings.deadLetterTopic(), new StringSerializer(),
                AvroSerde.of(DeadLetter.class), "embed");
        return topology;
    }

}
