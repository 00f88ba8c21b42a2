package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.app.runtime.EmbeddedRuntime;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mixed stream of good and bad input on the real embedded pipeline (KRaft broker, PostgreSQL, Debezium, both
 * topologies, ONNX model, Lucene): every good request is answered, every bad request gets an error reply naming its
 * problem (on its reply topic, or on {@code chartstream.replies} when that topic is unknown) and a dead letter,
 * injection-shaped patient filters match nothing, bad change events are dead-lettered, and afterwards a new source
 * row is still indexed and cited.
 */
class BadInputIT {
    private static final String REPLY_TOPIC = "bad-input.replies";
    private static final String PATIENT_ID = "7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);
    private static final String UNKNOWN_TOPIC = "bad-input.nobody.listens";
    private static final String GOOD_QUESTION = "Which patient is Ida Marwick from Lowell?";

    @TempDir
    static Path dir;
    private static EmbeddedRuntime runtime;

    @BeforeAll
    static void start() {
        runtime = OnePatientPipeline.start(dir, "bad-input",
                "('" + PATIENT_ID + "', 'MRN-700001', 'Ida', 'Marwick', '1958-09-14', 'female', 'Lowell', 'Massachusetts')", REPLY_TOPIC);
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    /** What one posted request must get: the final reply type on a topic and, for errors, the problem named. */
    private record Expectation(String replyTopic, ReplyType type, String error) {
    }

    @Test
    void aMixedStreamOfGoodAndBadInputAnswersEveryGoodOneNamesEveryProblemAndKeepsServing() throws Exception {
        String prefix = runtime.sources().get(0).topicPrefix();
        String patientsTopic = prefix + ".public.patients";
        String billingTopic = prefix + ".public.billing";
        runtime.createTopics(Map.of(billingTopic, 1));
        Map<String, Expectation> expected = new LinkedHashMap<>();
        String notAQueryRequest = "the message is not a QueryRequest (expected Avro single-object encoding)";

        try (KafkaProducer<String, byte[]> producer = producer()) {
            int good = 0;
            for (BadRequest bad : badRequests()) {
                String id = "good-" + good++;
                send(producer, REPLY_TOPIC, id, REQUESTS.serialize(request(id, GOOD_QUESTION).build()));
                expected.put(id, new Expectation(REPLY_TOPIC, ReplyType.ANSWER, null));
                send(producer, bad.replyTo(), bad.id(), bad.value());
                expected.put(bad.id(), bad.expectation());
            }
            send(producer, REPLY_TOPIC, "bad-bytes", "{\"question\":\"not avro\"}".getBytes(StandardCharsets.UTF_8));
            expected.put("bad-bytes", new Expectation(REPLY_TOPIC, ReplyType.ERROR, notAQueryRequest));
            producer.send(new ProducerRecord<>(Topics.REQUESTS, null, new byte[] {(byte) 0xC3, 0x01, 9})).get();
            expected.put("unknown", new Expectation(Topics.REPLIES, ReplyType.ERROR, notAQueryRequest));
            send(producer, REPLY_TOPIC, "good-last", REQUESTS.serialize(request("good-last", GOOD_QUESTION).build()));
            expected.put("good-last", new Expectation(REPLY_TOPIC, ReplyType.ANSWER, null));
        }
        try (KafkaProducer<String, String> changes = changeProducer()) {
            changes.send(new ProducerRecord<>(billingTopic, "{\"invoice_id\":1}", changeEvent("{\"invoice_id\":1,\"amount\":\"120.00\"}"))).get();
            changes.send(new ProducerRecord<>(patientsTopic, "{\"patient_id\":\"bad-1\"}", "{\"source\":{\"lsn\":1},\"after\":{}}")).get();
            changes.send(new ProducerRecord<>(patientsTopic, "{\"patient_id\":\"geo-1\"}", changeEvent("{\"patient_id\":\"geo-1\","
                    + "\"patient_no\":\"MRN-700002\",\"first_name\":\"Olek\",\"last_name\":\"Brandt\",\"city\":{\"wkb\":\"AQEAAAA=\",\"srid\":4326}}"))).get();
        }

        Map<String, Map<String, List<ReplyEvent>>> repliesByTopic = Map.of(
                REPLY_TOPIC, finalReplies(REPLY_TOPIC, expected.keySet()), Topics.REPLIES, finalReplies(Topics.REPLIES, expected.keySet()));
        List<DeadLetter> dead = deadLetters(d -> d.getReason().contains("public.billing") || d.getReason().contains("column 'city'"),
                expected.values().stream().filter(e -> e.type() == ReplyType.ERROR).count() + 3);

        for (Map.Entry<String, Expectation> e : expected.entrySet()) {
            String id = e.getKey();
            Expectation want = e.getValue();
            Map<String, List<ReplyEvent>> replies = repliesByTopic.get(want.replyTopic());
            assertThat(replies).as("a final reply for %s on %s", id, want.replyTopic()).containsKey(id);
            ReplyEvent last = replies.get(id).get(replies.get(id).size() - 1);
            assertThat(last.getType()).as("final reply type of %s", id).isEqualTo(want.type());
            if (want.type() == ReplyType.ERROR) {
                assertThat(last.getError()).as("error of %s", id).startsWith(want.error());
                assertThat(dead).as("dead letter of %s", id).anySatisfy(d -> {
                    assertThat(d.getStage()).isEqualTo("query.validate");
                    assertThat(d.getReason()).isEqualTo(last.getError());
                });
            } else if (want.type() == ReplyType.REFUSED) {
                assertThat(last.getCitations()).as("citations for the literal filter of %s", id).isEmpty();
            } else {
                assertThat(last.getCitations()).as("citations of %s", id).isNotEmpty();
                assertThat(last.getCitations().get(0).getText()).contains("Ida Marwick");
            }
        }
        assertThat(dead).extracting(DeadLetter::getReason).contains(
                "table public.billing is not registered for source " + runtime.sourceId(),
                "change event on " + patientsTopic + " has no 'op' field",
                "table public.patients of source " + runtime.sourceId()
                        + ": column 'city' (struct) cannot be rendered as text and was left out of the indexed row");

        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get()).as("a request cannot make the broker create its reply topic")
                    .doesNotContain(UNKNOWN_TOPIC);
        }

        // still serving: a new source row flows through CDC and ingest, and is cited in an answer
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                    + " values (700001, '" + PATIENT_ID + "', '2024-10-01', '197361', 'Amlodipine 5 MG Oral Tablet', 'Essential hypertension')");
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (runtime.indexedRowCounts().getOrDefault("medications", 0L) < 1) {
            assertThat(System.nanoTime()).as("the new medication row is indexed").isLessThan(deadline);
            Thread.sleep(100);
        }
        try (KafkaProducer<String, byte[]> producer = producer()) {
            send(producer, REPLY_TOPIC, "after", REQUESTS.serialize(request("after", "Which patient takes amlodipine for hypertension?").build()));
        }
        List<ReplyEvent> after = finalReplies(REPLY_TOPIC, List.of("after")).get("after");
        ReplyEvent answer = after.get(after.size() - 1);
        assertThat(answer.getType()).as("the question after the bad input").isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCitations()).anySatisfy(cit -> assertThat(cit.getRowKey()).isEqualTo("700001"));
    }

    /** A bad (or injection-shaped) request, the reply topic it names and what it must get. */
    private record BadRequest(String id, String replyTo, byte[] value, Expectation expectation) {
        static BadRequest of(QueryRequest.Builder r, ReplyType type, String errorStart) {
            return new BadRequest(r.getRequestId(), REPLY_TOPIC, REQUESTS.serialize(r.build()), new Expectation(REPLY_TOPIC, type, errorStart));
        }
    }

    private static List<BadRequest> badRequests() {
        byte[] whole = REQUESTS.serialize(request("truncated", GOOD_QUESTION).build());
        return List.of(
                new BadRequest("truncated", REPLY_TOPIC, Arrays.copyOf(whole, 12), new Expectation(REPLY_TOPIC, ReplyType.ERROR,
                        "the message is not a QueryRequest (expected Avro single-object encoding)")),
                BadRequest.of(request("no-user", GOOD_QUESTION).setUserId(""), ReplyType.ERROR, "field 'user_id' is empty"),
                BadRequest.of(request("empty", ""), ReplyType.ERROR, "field 'question' is empty"),
                BadRequest.of(request("huge", "why ".repeat(25_000)), ReplyType.ERROR,
                        "field 'question' has 100000 characters; the limit is 4000"),
                BadRequest.of(request("table", GOOD_QUESTION).setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("billing")).build()),
                        ReplyType.ERROR, "field 'filter.tables' names 'billing', which is not an indexed table (indexed: "),
                // injection-shaped patient values are not patient identifiers
                BadRequest.of(request("sql-shaped", GOOD_QUESTION).setFilter(RetrievalFilterSpec.newBuilder().setPatient("x' OR '1'='1").build()),
                        ReplyType.ERROR, "field 'filter.patient' is not a patient identifier"),
                BadRequest.of(request("mongo-shaped", GOOD_QUESTION).setFilter(RetrievalFilterSpec.newBuilder().setPatient("{\"$ne\":null}").build()),
                        ReplyType.ERROR, "field 'filter.patient' is not a patient identifier"),
                // an identifier-shaped value is an exact literal: it matches no record, so the question is refused
                BadRequest.of(request("literal", GOOD_QUESTION).setFilter(RetrievalFilterSpec.newBuilder().setPatient("MRN-1 OR MRN-2").build()),
                        ReplyType.REFUSED, null),
                new BadRequest("wrong-topic", UNKNOWN_TOPIC, REQUESTS.serialize(request("wrong-topic", GOOD_QUESTION).build()),
                        new Expectation(Topics.REPLIES, ReplyType.ERROR, "header 'reply-to' names topic '" + UNKNOWN_TOPIC + "', which does not exist")),
                BadRequest.of(request("late", GOOD_QUESTION).setDeadlineMs(System.currentTimeMillis() - 60_000), ReplyType.ERROR,
                        "field 'deadline_ms' is already past"));
    }

    private static QueryRequest.Builder request(String id, String question) {
        return QueryRequest.newBuilder().setRequestId(id).setConversationId("conv-" + id).setUserId("it").setQuestion(question).setTopK(3);
    }

    private static String changeEvent(String after) {
        return "{\"before\":null,\"after\":" + after + ",\"source\":{\"snapshot\":\"false\",\"lsn\":1,\"ts_ms\":1700000000000},"
                + "\"op\":\"c\",\"ts_ms\":1700000000001}";
    }

    private static void send(KafkaProducer<String, byte[]> producer, String replyTo, String correlationId, byte[] value) throws Exception {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.REQUESTS, "conv-" + correlationId, value);
        record.headers().add(Topics.HEADER_REPLY_TO, replyTo.getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private static KafkaProducer<String, String> changeProducer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** Reply events by request id (or correlation id) from the start of a topic, until each wanted id with events there has a final one. */
    private static Map<String, List<ReplyEvent>> finalReplies(String topic, java.util.Collection<String> ids) {
        Map<String, List<ReplyEvent>> byId = new HashMap<>();
        java.util.Set<String> finished = new java.util.HashSet<>();
        java.util.Set<String> wanted = new java.util.HashSet<>(ids);
        read(topic, AvroSerde.of(ReplyEvent.class), event -> {
            String id = wanted.contains(event.getRequestId()) ? event.getRequestId() : event.getCorrelationId();
            if (id != null && wanted.contains(id)) {
                byId.computeIfAbsent(id, k -> new ArrayList<>()).add(event);
                if (org.chartstream.app.client.QueryClient.FINAL.contains(event.getType())) {
                    finished.add(id);
                }
            }
        }, () -> Topics.REPLIES.equals(topic) ? finished.containsAll(List.of("wrong-topic", "unknown"))
                : finished.containsAll(wanted.stream().filter(id -> !id.equals("wrong-topic") && !id.equals("unknown")).toList()));
        return byId;
    }

    private static List<DeadLetter> deadLetters(Predicate<DeadLetter> ingest, long atLeast) {
        List<DeadLetter> out = new ArrayList<>();
        read(Topics.DEAD_LETTER, AvroSerde.of(DeadLetter.class), d -> {
            out.add(d);
        }, () -> out.size() >= atLeast && out.stream().filter(ingest).count() >= 2);
        return out;
    }

    /** Reads a topic from its start, handing each value on, until {@code done} (or fails after {@link #WAIT}). */
    private static <T> void read(String topic, Deserializer<T> values, java.util.function.Consumer<T> each, java.util.function.BooleanSupplier done) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(p, new StringDeserializer(), values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!done.getAsBoolean()) {
                assertThat(System.nanoTime()).as("everything expected on %s arrives within %s", topic, WAIT).isLessThan(deadline);
                for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        each.accept(r.value());
                    }
                }
            }
        }
    }
}
