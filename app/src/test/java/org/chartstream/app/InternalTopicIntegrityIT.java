package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.chartstream.app.ops.Operations;
import org.chartstream.client.KafkaClientProperties;
import org.chartstream.client.QueryClient;
import org.chartstream.ingest.IngestTopology;
import org.chartstream.replica.IndexMaterializer;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage and foreign records written straight into the pipeline's own topics (the index log, the compacted ingest
 * status topic, the audit topic, the ingest's repartition topic before embedding) on the real embedded pipeline: the
 * materializer and the embedding task dead-letter and skip them and keep indexing, {@code /ready} stays ready, the metric counts them, {@code status} and {@code audit} still work and name
 * the skipped offsets, and a restart does not meet the skipped records again.
 */
class InternalTopicIntegrityIT {
    private static final String NAME = "integrity";
    private static final String REPLY_TOPIC = "chartstream.replies.internal-topics";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    private static PipelineRuntime runtime;
    private static Operations ops;

    @BeforeAll
    static void start() {
        runtime = OnePatientPipeline.start(dir, NAME,
                "('0c4f7a1e-2b3d-4e5f-8a9b-1c2d3e4f5a6b', 'MRN-710001', 'Ida', 'Marwick', '1958-09-14', 'female', 'Lowell', 'Massachusetts')",
                REPLY_TOPIC);
        ops = Operations.start(ChartstreamConfig.defaults().with("ops.http.port", "0"), line -> { });
        ops.attach(runtime);
    }

    @AfterAll
    static void stop() {
        if (ops != null) {
            ops.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void recordsNoReaderCanReadAreDeadLetteredCountedAndSkippedWhileThePipelineKeepsServing() throws Exception {
        byte[] replyEvent = AvroSerde.of(ReplyEvent.class).serialize(ReplyEvent.newBuilder().setRequestId("r-foreign").setSeq(0)
                .setType(ReplyType.ERROR).setError("a reply routed into the index log").setTsMs(1).build());
        byte[] goodEvent = AvroSerde.of(IndexEvent.class).serialize(upsertWithVector("x-row", 7));
        byte[] truncated = Arrays.copyOf(goodEvent, goodEvent.length / 2);
        List<RecordMetadata> index = new ArrayList<>();
        List<RecordMetadata> status = new ArrayList<>();
        List<RecordMetadata> audit = new ArrayList<>();
        List<RecordMetadata> embed = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            index.add(send(producer, Topics.INDEX, "k1", replyEvent));
            index.add(send(producer, Topics.INDEX, "k2", "{\"kind\":\"UPSERT_ROW\"}".getBytes(StandardCharsets.UTF_8)));
            index.add(send(producer, Topics.INDEX, "k3", truncated));
            index.add(send(producer, Topics.INDEX, "k4", goodEvent)); // an IndexEvent of 7-dimensional vectors: not for this store
            status.add(send(producer, Topics.INGEST_STATUS, "ehr:foreign", replyEvent));
            status.add(send(producer, Topics.INGEST_STATUS, "ehr:patients", "{}".getBytes(StandardCharsets.UTF_8)));
            audit.add(send(producer, Topics.AUDIT, "r-foreign", replyEvent));
            audit.add(send(producer, Topics.AUDIT, "r-bad-cite", AvroSerde.of(AnswerAudit.class).serialize(auditCiting("no-such-chunk-id"))));
            embed.add(send(producer, Topics.INGEST_EMBED, "k5", replyEvent));
            embed.add(send(producer, Topics.INGEST_EMBED, "k6", truncated));
        }

        // a row inserted after the bad records is indexed and answered: the materializer went on past them
        try (Connection c = runtime.connection(runtime.sourceId()); Statement s = c.createStatement()) {
            s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state) values "
                    + "('5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9', 'MRN-710002', 'Tomasz', 'Quellbrook', '1971-03-02', 'male', 'Salem', 'Massachusetts')");
        }
        runtime.awaitSearchable(WAIT);
        ReplyEvent answer = ask("Which patient is Tomasz Quellbrook from Salem?");
        assertThat(answer.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCitations()).anySatisfy(cit -> assertThat(cit.getText()).contains("Tomasz Quellbrook"));

        IndexMaterializer materializer = runtime.materializer();
        assertThat(materializer.failure()).isNull();
        assertThat(materializer.skippedRecords()).isEqualTo(index.size());
        assertThat(ops.readiness().ready()).as("/ready after the bad records: %s", ops.readiness().json()).isTrue();

        // the skipped offsets are part of the store checkpoint, committed with the applied rows; the store serves a
        // row before that commit (it is made searchable first), so the commit is waited for
        String offsetKey = "offset." + Topics.INDEX + "." + index.get(0).partition();
        long lastBad = index.get(index.size() - 1).offset();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (Long.parseLong(runtime.store().checkpoint().getOrDefault(offsetKey, "-1")) <= lastBad && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Long.parseLong(runtime.store().checkpoint().getOrDefault(offsetKey, "-1"))).as("committed %s", offsetKey)
                .isGreaterThan(lastBad);

        List<DeadLetter> dead = deadLetters(index.size() + status.size() + embed.size());
        for (RecordMetadata m : index) {
            assertThat(dead).as("dead letter of index-log offset %d", m.offset()).anySatisfy(d -> {
                assertThat(d.getStage()).isEqualTo(IndexMaterializer.CONSUMER_NAME);
                assertThat(d.getSourceTopic()).isEqualTo(Topics.INDEX);
                assertThat(d.getPartition()).isEqualTo(m.partition());
                assertThat(d.getOffset()).isEqualTo(m.offset());
                assertThat(d.getValue()).isNotNull();
            });
        }
        assertThat(dead).filteredOn(d -> d.getSourceTopic().equals(Topics.INDEX) && d.getOffset() == index.get(0).offset())
                .first().satisfies(d -> {
                    assertThat(bytes(d.getValue().duplicate())).isEqualTo(replyEvent);
                    assertThat(d.getReason()).startsWith("not an IndexEvent");
                });
        assertThat(dead).filteredOn(d -> d.getSourceTopic().equals(Topics.INDEX) && d.getOffset() == index.get(3).offset())
                .first().satisfies(d -> assertThat(d.getReason()).contains("vector of 7 values"));
        for (RecordMetadata m : status) {
            assertThat(dead).as("dead letter of status offset %d", m.offset()).anySatisfy(d -> {
                assertThat(d.getStage()).isEqualTo("ops-ingest-status");
                assertThat(d.getSourceTopic()).isEqualTo(Topics.INGEST_STATUS);
                assertThat(d.getOffset()).isEqualTo(m.offset());
            });
        }

        for (RecordMetadata m : embed) {
            assertThat(dead).as("dead letter of repartition offset %d", m.offset()).anySatisfy(d -> {
                assertThat(d.getStage()).isEqualTo(IngestTopology.EMBEDDING_CONSUMER_NAME);
                assertThat(d.getSourceTopic()).isEqualTo(Topics.INGEST_EMBED);
                assertThat(d.getPartition()).isEqualTo(m.partition());
                assertThat(d.getOffset()).isEqualTo(m.offset());
            });
        }

        String scrape = ops.scrape();
        assertThat(scrape).contains("chartstream_unreadable_records_total{consumer=\"index-materializer\",topic=\"chartstream.index\"} "
                + (double) index.size());
        assertThat(scrape).contains("chartstream_unreadable_records_total{consumer=\"ops-ingest-status\",topic=\"chartstream.ingest.status\"} "
                + (double) status.size());
        assertThat(scrape).contains("chartstream_unreadable_records_total{consumer=\"ingest-embed\",topic=\"chartstream.ingest.embed\"} "
                + (double) embed.size());

        Path config = Files.writeString(dir.resolve("cli.properties"), "data.dir=" + dir + "\nops.http.port=0\n");
        InProcessCli statusRun = InProcessCli.run("--config", config.toString(), "status", "--bootstrap", runtime.bootstrapServers(), "--json");
        assertThat(statusRun.code()).as("status exit code; stderr: %s", statusRun.err()).isZero();
        assertThat(statusRun.out()).contains("\"table\"").contains("patients");
        for (RecordMetadata m : status) {
            assertThat(statusRun.err()).contains("status-reader skipped an unreadable record at " + Topics.INGEST_STATUS
                    + "-" + m.partition() + " offset " + m.offset());
        }

        InProcessCli auditRun = InProcessCli.run("--config", config.toString(), "audit", "--from", "-1h", "--bootstrap", runtime.bootstrapServers(), "--json");
        assertThat(auditRun.code()).as("audit exit code; stderr: %s", auditRun.err()).isIn(0, 3);
        assertThat(auditRun.out()).contains("\"summary\"");
        for (RecordMetadata m : audit) {
            assertThat(auditRun.err()).contains("audit-reader skipped an unreadable record at " + Topics.AUDIT + "-" + m.partition()
                    + " offset " + m.offset());
        }
        assertThat(auditRun.err()).doesNotContain("a reply routed into the index log");

        // restarted, the pipeline does not meet the skipped index-log records again, and is ready
        runtime.close();
        ops.close();
        runtime = OnePatientPipeline.start(dir, NAME, "('unused', 'unused', 'x', 'y', '2000-01-01', 'female', 'x', 'y')", REPLY_TOPIC);
        ops = Operations.start(ChartstreamConfig.defaults().with("ops.http.port", "0"), line -> { });
        ops.attach(runtime);
        assertThat(ask("Which patient is Tomasz Quellbrook from Salem?").getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(runtime.materializer().skippedRecords()).isZero();
        assertThat(runtime.materializer().failure()).isNull();
        assertThat(ops.readiness().ready()).isTrue();
    }

    /** Asks through a client that meets a record on its reply topic that is not a reply event first. */
    private static ReplyEvent ask(String question) throws Exception {
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC); KafkaProducer<byte[], byte[]> producer = producer()) {
            send(producer, REPLY_TOPIC, "r-foreign", "not a reply event".getBytes(StandardCharsets.UTF_8));
            String id = "q-" + System.nanoTime();
            List<ReplyEvent> events = client.ask(QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("it")
                    .setQuestion(question).setTopK(3).build(), WAIT, e -> { });
            return events.get(events.size() - 1);
        }
    }

    private static IndexEvent upsertWithVector(String rowKey, int dimension) {
        List<Float> vector = new ArrayList<>();
        for (int i = 0; i < dimension; i++) {
            vector.add(0.1f);
        }
        ChunkRecord chunk = ChunkRecord.newBuilder().setChunkId(runtime.sourceId() + ":patients:" + rowKey + ":0:1")
                .setSourceId(runtime.sourceId()).setTableName("patients").setRowKey(rowKey).setChunkIndex(0).setChunkCount(1)
                .setGeneration(1).setText("foreign").setVector(vector).setSourcePosition("0").setCommitTsMs(1).setModelId("other")
                .setDimension(dimension).build();
        return IndexEvent.newBuilder().setKind(IndexEventKind.UPSERT_ROW).setSourceId(runtime.sourceId()).setTableName("patients")
                .setRowKey(rowKey).setGeneration(1).setChunks(List.of(chunk)).build();
    }

    private static AnswerAudit auditCiting(String chunkId) {
        return AnswerAudit.newBuilder().setRequestId("r-bad-cite").setConversationId("c").setUserId("it").setTsMs(System.currentTimeMillis())
                .setOutcome(ReplyType.ANSWER).setEmbeddingModel("m")
                .setCited(List.of(CitedChunk.newBuilder().setChunkId(chunkId).setGeneration(1).setSourcePosition("0").build())).build();
    }

    private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, String topic, String key, byte[] value) throws Exception {
        return producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static List<DeadLetter> deadLetters(int atLeast) {
        AvroSerde<DeadLetter> serde = AvroSerde.of(DeadLetter.class);
        List<DeadLetter> out = new ArrayList<>();
        Properties p = KafkaClientProperties.readCommittedConsumer(runtime.bootstrapServers(), Map.of(), "integrity-it-dead-letters");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = consumer.partitionsFor(Topics.DEAD_LETTER, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline && out.stream().filter(d -> !d.getStage().startsWith("query.") && !d.getStage().startsWith("ingest.")).count() < atLeast) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(serde.deserialize(r.topic(), r.value()));
                }
            }
        }
        return out;
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
