package org.chartstream.ingest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.chartstream.core.model.TextChunker;
import org.chartstream.core.store.HybridStore;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.replica.IndexLogApplier;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IngestCommand;
import org.chartstream.schemas.IngestControl;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * The ingest topology on a {@link TopologyTestDriver} with its production Streams settings (exactly once; no idle
 * wait), as Confluent's kafka-streams-examples test a
 * topology: configure it with {@link IngestSettings}, produce Debezium change events, notifications and control
 * requests, verify the index log, the dead letters and the status it writes.
 */
final class IngestTopologyFixture implements AutoCloseable {
    /** Longer than any linger the tests configure: one punctuation (flush, re-index batches) runs. */
    private static final Duration LINGER = Duration.ofMillis(200);
    private static final String APPLICATION_ID = "ingest-test";

    private final TopologyTestDriver driver;
    private final TestOutputTopic<String, IndexEvent> index;
    private final TestOutputTopic<String, IndexEvent> toEmbedding;
    private final TestOutputTopic<String, DeadLetter> deadLetters;
    private final TestOutputTopic<String, IngestTableStatus> status;
    private final TestOutputTopic<String, EmbeddingProgress> progress;
    private final TestInputTopic<String, byte[]> control;

    IngestTopologyFixture(Path stateDir, IngestSettings settings, TextChunker chunker, PassageEmbedder embedder) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.putAll(new IngestStreamsSettings(100, IngestSettings.DEFAULT_QUIET.toMillis(), 1).properties()); // as in production
        // but the driver pipes each record in the test's order: the idle wait for a partition a producer may still be
        // writing has nothing to wait for here, and would hold every record until the test moves the clock
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0");
        driver = new TopologyTestDriver(IngestTopology.build(settings, chunker, embedder), props);
        index = driver.createOutputTopic(settings.indexTopic(), new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        toEmbedding = driver.createOutputTopic(settings.embedTopic(), new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        deadLetters = driver.createOutputTopic(settings.deadLetterTopic(), new StringDeserializer(), AvroSerde.of(DeadLetter.class));
        status = driver.createOutputTopic(settings.statusTopic(), new StringDeserializer(), AvroSerde.of(IngestTableStatus.class));
        progress = driver.createOutputTopic(settings.progressTopic(), new StringDeserializer(), AvroSerde.of(EmbeddingProgress.class));
        control = driver.createInputTopic(settings.controlTopic(), new StringSerializer(), new ByteArraySerializer());
    }

    /** A topic the topology reads: a table's change topic ({@code ehr.public.notes}), a source's notifications. */
    TestInputTopic<String, String> input(String topic) {
        return driver.createInputTopic(topic, new StringSerializer(), new StringSerializer());
    }

    /** The ingest repartition topic as anyone with broker access could write it: raw bytes. */
    TestInputTopic<byte[], byte[]> rawEmbedTopic(String topic) {
        return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The control topic as anyone with broker access could write it: values as raw bytes. */
    TestInputTopic<String, byte[]> control() {
        return control;
    }

    /** Asks for a re-index of {@code source:table} as {@code chartstream reindex} does. */
    void requestReindex(String sourceId, String table) {
        IngestControl request = IngestControl.newBuilder().setCommand(IngestCommand.REINDEX).setSourceId(sourceId)
                .setTableName(table).setRequestedMs(1).build();
        control.pipeInput(sourceId + ":" + table, AvroSerde.of(IngestControl.class).serialize(request));
    }

    TestOutputTopic<String, IndexEvent> index() {
        return index;
    }

    /** What the planner task wrote to the ingest repartition topic (the embedding tasks read it too). */
    TestOutputTopic<String, IndexEvent> toEmbedding() {
        return toEmbedding;
    }

    TestOutputTopic<String, DeadLetter> deadLetters() {
        return deadLetters;
    }

    /** What the planner task has written so far to the changelog of its state store {@code store}, in order. */
    List<KeyValue<String, String>> changelog(String store) {
        return driver.createOutputTopic(APPLICATION_ID + "-" + store + "-changelog", new StringDeserializer(), new StringDeserializer())
                .readKeyValuesToList();
    }

    /** Empties the planner store {@code store}, as a version of the pipeline without that store left it. */
    void forgetStore(String store) {
        org.apache.kafka.streams.state.KeyValueStore<String, String> kv = driver.getKeyValueStore(store);
        List<String> keys = new java.util.ArrayList<>();
        try (org.apache.kafka.streams.state.KeyValueIterator<String, String> it = kv.all()) {
            it.forEachRemaining(e -> keys.add(e.key));
        }
        keys.forEach(kv::delete);
    }

    /** Lets the linger time pass: pending events are embedded and forwarded, statuses announced, re-indexes advanced. */
    void lingerPasses() {
        driver.advanceWallClockTime(LINGER);
    }

    /** Lets {@code time} of wall-clock time pass (punctuations that fall due run once). */
    void timePasses(Duration time) {
        driver.advanceWallClockTime(time);
    }

    /** The newest status announced for {@code source:table} (reads the status topic). */
    IngestTableStatus latestStatus(String tableKey) {
        return status.readKeyValuesToMap().get(tableKey);
    }

    /** The newest status announced for each table since the statuses were last read, by {@code source:table}. */
    Map<String, IngestTableStatus> latestStatuses() {
        return status.readKeyValuesToMap();
    }

    /** The newest progress announced by each embedding task, by its key ({@code embed-<partition>}). */
    Map<String, EmbeddingProgress> latestProgress() {
        return progress.readKeyValuesToMap();
    }

    /** Applies index events to a store, as the replica does with a one-partition log, and commits. */
    static void materialise(HybridStore store, List<IndexEvent> events) {
        IndexLogApplier applier = new IndexLogApplier(store, 1, Map.of());
        events.forEach(e -> applier.apply(e, 0));
        store.commit(Map.of());
    }

    /** A Debezium change event (Postgres connector, JSON without schemas) with an after image. */
    static String change(String op, String snapshot, String after, long lsn) {
        return "{\"before\":null,\"after\":" + after + ",\"source\":{\"snapshot\":\"" + snapshot + "\",\"lsn\":" + lsn
                + ",\"ts_ms\":1700000000000},\"op\":\"" + op + "\",\"ts_ms\":1700000000001}";
    }

    /** Debezium's notification that the initial snapshot read {@code rows} rows of {@code public.<table>}. */
    static String tableScanCompleted(String table, int rows) {
        return "{\"id\":\"n-" + table + "\",\"type\":\"TABLE_SCAN_COMPLETED\",\"aggregate_type\":\"Initial Snapshot\","
                + "\"additional_data\":{\"scanned_collection\":\"public." + table + "\",\"connector_name\":\"ehr\","
                + "\"total_rows_scanned\":\"" + rows + "\",\"status\":\"SUCCEEDED\"},\"timestamp\":1700000000002}";
    }

    @Override
    public void close() {
        driver.close();
    }
}
