package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
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
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.app.ops.Operations;
import org.chartstream.client.QueryClient;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input on the real embedded pipeline (KRaft broker, PostgreSQL, Debezium, both topologies, ONNX model,
 * Lucene): every good request is answered, every bad request gets an error reply naming its problem (on its reply
 * topic, or on {@code chartstream.replies} when that topic cannot be used) and a dead letter, injection-shaped patient
 * filters match nothing, bad change events are dead-lettered; replies never reach the pipeline's own topics (end
 * offsets before and after), a request id answers once, questions are measured in characters and empty after
 * normalisation is empty, top_k is honoured up to its maximum, a late request gets a timeout. After each kind of bad
 * input a new source row is still indexed and cited, and {@code /ready} answers 200.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputIT {
    private static final String REPLY_TOPIC = "chartstream.replies.bad-input";
    private static final String RETRY_TOPIC = "chartstream.replies.bad-input-retry";
    /** Exists, but no allow-list entry names it. */
    private static final String UNLISTED_TOPIC = "bad-input.elsewhere";
    private static final String PATIENT_ID = "7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);
    /** Allowed by the default prefix, but nobody created it. */
    private static final String UNKNOWN_TOPIC = "chartstream.replies.nobody-listens";
    private static final String GOOD_QUESTION = "Which patient is Ida Marwick from Lowell?";
    /** The pipeline's own topics listed on purpose: they must be refused all the same. */
    private static final String LISTING_OWN_TOPICS = "chartstream.replies,chartstream.replies.*,chartstream.replay.*,chartstream.index,"
            + "chartstream.requests,chartstream.ingest.*,chartstream-*,ehr,ehr.*,__*";
    private static final String EMOJI = "\uD83E\uDE7A"; // one character, two UTF-16 units

    @TempDir
    static Path dir;
    private static PipelineRuntime runtime;
    private static Operations ops;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static int nextMedication = 700_001;

    @BeforeAll
    static void start() throws Exception {
        runtime = OnePatientPipeline.start(dir, "bad-input",
                "('" + PATIENT_ID + "', 'MRN-700001', 'Ida', 'Marwick', '1958-09-14', 'female', 'Lowell', 'Massachusetts')", REPLY_TOPIC,
                Map.of("query.reply-topics", LISTING_OWN_TOPICS));
        runtime.createTopics(Map.of(RETRY_TOPIC, 1, UNLISTED_TOPIC, 1));
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ops = Operations.start(ChartstreamConfig.defaults().with("ops.http.port", Integer.toString(port)), line -> System.out.println("[ops] " + line));
        ops.attach(runtime);
        assertReady();
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

    /** What one posted request must get: the final reply type on a topic and, for errors, the problem named. */
    private record Expectation(String replyTopic, ReplyType type, String error) {
    }

    @Test
    @Order(1)
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

        Set<String> onDefault = Set.of("wrong-topic", "unknown", "unlisted-topic");
        Map<String, Map<String, List<ReplyEvent>>> repliesByTopic = Map.of(
                REPLY_TOPIC, finalReplies(REPLY_TOPIC, expected.keySet().stream().filter(id -> !onDefault.contains(id)).toList()),
                Topics.REPLIES, finalReplies(Topics.REPLIES, onDefault));
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
            } else if (want.type() == ReplyType.TIMEOUT) {
                assertThat(last.getError()).as("timeout of %s", id).startsWith(want.error());
                assertThat(replies.get(id)).as("no answer and no citations for %s", id).extracting(ReplyEvent::getType)
                        .containsExactly(ReplyType.TIMEOUT);
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

        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get()).as("a request cannot make the broker create its reply topic")
                    .doesNotContain(UNKNOWN_TOPIC);
        }
        assertStillServing();
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
                // NUL, zero-width space, word joiner, BOM, soft hyphen, a right-to-left override, tabs and line breaks
                BadRequest.of(request("invisible", "\u0000\u200B \u2060\uFEFF\u00AD\u202E\t\r\n\u0000"), ReplyType.ERROR,
                        "field 'question' is empty: it holds only white space, control or invisible format characters"),
                BadRequest.of(request("huge", "why ".repeat(25_000)), ReplyType.ERROR,
                        "field 'question' has 100000 characters; the limit is 4000"),
                // 4,001 characters are 8,002 UTF-16 units; 2,500 (5,000 units) are within the limit and answered
                BadRequest.of(request("emoji-huge", EMOJI.repeat(4001)), ReplyType.ERROR,
                        "field 'question' has 4001 characters; the limit is 4000"),
                BadRequest.of(request("emoji-long", GOOD_QUESTION + " " + EMOJI.repeat(2500)), ReplyType.ANSWER, null),
                BadRequest.of(request("top-k", GOOD_QUESTION).setTopK(31), ReplyType.ERROR, "field 'top_k' is 31; it must be between 1 and 30"),
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
                new BadRequest("unlisted-topic", UNLISTED_TOPIC, REQUESTS.serialize(request("unlisted-topic", GOOD_QUESTION).build()),
                        new Expectation(Topics.REPLIES, ReplyType.ERROR, "header 'reply-to' names topic '" + UNLISTED_TOPIC
                                + "', which is not an allowed reply topic (query.reply-topics: ")),
                BadRequest.of(request("late", GOOD_QUESTION).setDeadlineMs(System.currentTimeMillis() - 60_000), ReplyType.TIMEOUT,
                        "field 'deadline_ms' was already past when the request arrived"));
    }

    @Test
    @Order(2)
    void aReplyToThePipelinesOwnTopicsIsRefusedEvenWhenListedAndNothingIsWrittenThere() throws Exception {
        List<String> own = new ArrayList<>(List.of(Topics.INDEX, Topics.REQUESTS, Topics.AUDIT, Topics.DEAD_LETTER,
                "chartstream.ingest.status", "chartstream.ingest.control", "__consumer_offsets", "__transaction_state"));
        String prefix = runtime.sources().get(0).topicPrefix();
        try (Admin admin = admin()) {
            for (String topic : admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names().get()) {
                if (topic.endsWith("-changelog") || topic.endsWith("-repartition") || topic.equals(prefix) || topic.startsWith(prefix + ".")) {
                    own.add(topic);
                }
            }
        }
        assertThat(own).as("the Streams changelogs and the Debezium topics are among them")
                .anyMatch(t -> t.endsWith("-changelog")).contains(prefix + ".public.patients", prefix + ".debezium-notifications");
        // the request topic gets the test's requests, audit and dead letter one record each per refusal; Kafka itself
        // writes __consumer_offsets and __transaction_state whenever the topologies commit
        List<String> watched = own.stream().filter(t -> !t.equals(Topics.REQUESTS) && !t.equals(Topics.AUDIT)
                && !t.equals(Topics.DEAD_LETTER) && !t.startsWith("__")).toList();
        // the earlier tests' last transaction may still be committing (query.commit-interval-ms, 1 s by default: replies
        // do not wait for it), and its commit marker moves the changelogs' end offsets: start from settled offsets
        Map<TopicPartition, Long> before = endOffsets(own);
        long settleDeadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
        for (Map<TopicPartition, Long> again = null; !before.equals(again) && System.nanoTime() < settleDeadline; ) {
            again = before;
            Thread.sleep(1_500);
            before = endOffsets(own);
        }

        List<String> ids = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (String topic : own) {
                String id = "own-" + ids.size();
                ids.add(id);
                send(producer, topic, id, REQUESTS.serialize(request(id, GOOD_QUESTION).build()));
            }
        }
        Map<String, List<ReplyEvent>> replies = finalReplies(Topics.REPLIES, ids);
        // replies leave at once, the dead letters with the query topology's next commit: wait for all of them
        List<DeadLetter> dead = new ArrayList<>();
        read(Topics.DEAD_LETTER, AvroSerde.of(DeadLetter.class), dead::add,
                () -> dead.stream().filter(d -> d.getReason().contains("a topic of the pipeline itself")).count() >= own.size());
        for (int i = 0; i < own.size(); i++) {
            String expected = "header 'reply-to' names '" + own.get(i) + "', a topic of the pipeline itself (index log, requests, audit,"
                    + " dead letter, status, control, Kafka Streams, Debezium or Kafka internal topics): replies never go there";
            List<ReplyEvent> events = replies.get(ids.get(i));
            assertThat(events).as("the one error reply of %s on the default reply topic", own.get(i)).hasSize(1);
            assertThat(events.get(0).getType()).isEqualTo(ReplyType.ERROR);
            assertThat(events.get(0).getError()).isEqualTo(expected);
            assertThat(dead).as("dead letter for %s", own.get(i)).anySatisfy(d -> {
                assertThat(d.getStage()).isEqualTo("query.validate");
                assertThat(d.getReason()).isEqualTo(expected);
            });
        }
        Thread.sleep(2_000); // a reply loop would keep the request topic growing
        Map<TopicPartition, Long> after = endOffsets(own);
        for (String topic : watched) {
            assertThat(offsetsOf(after, topic)).as("end offsets of %s after the refused replies", topic).isEqualTo(offsetsOf(before, topic));
        }
        assertThat(sum(after, Topics.REQUESTS) - sum(before, Topics.REQUESTS)).as("only the test's own requests on the request topic")
                .isEqualTo(own.size());
        assertEveryRecordSince(before, Topics.AUDIT, AvroSerde.of(AnswerAudit.class));
        assertEveryRecordSince(before, Topics.DEAD_LETTER, AvroSerde.of(DeadLetter.class));
        assertStillServing();
    }

    @Test
    @Order(3)
    void aRequestIdAnswersOnceARepeatGetsTheSameOutcomeAndOtherContentUnderItIsAnError() throws Exception {
        try (KafkaProducer<String, byte[]> producer = producer()) {
            send(producer, REPLY_TOPIC, "dup-a", REQUESTS.serialize(request("dup-a", GOOD_QUESTION).build()));
        }
        ReplyEvent original = last(finalReplies(REPLY_TOPIC, List.of("dup-a")).get("dup-a"));
        assertThat(original.getType()).isEqualTo(ReplyType.ANSWER);

        try (KafkaProducer<String, byte[]> producer = producer()) {
            // the same request again, with another correlation id and deadline: the original outcome, computed once
            send(producer, REPLY_TOPIC, "dup-a-retry", REQUESTS.serialize(request("dup-a", GOOD_QUESTION)
                    .setDeadlineMs(System.currentTimeMillis() + 600_000).build()));
            // the same id, another question
            send(producer, REPLY_TOPIC, "dup-a-other", REQUESTS.serialize(request("dup-a", "Which patient lives in Lowell?").build()));
            // two copies of one request back to back, the second wanting its reply elsewhere: one answer, on both topics
            send(producer, REPLY_TOPIC, "dup-b", REQUESTS.serialize(request("dup-b", GOOD_QUESTION).build()));
            send(producer, RETRY_TOPIC, "dup-b-retry", REQUESTS.serialize(request("dup-b", GOOD_QUESTION).build()));
        }
        Map<String, List<ReplyEvent>> byCorrelation = repliesByCorrelationId(REPLY_TOPIC, List.of("dup-a-retry", "dup-a-other", "dup-b"));
        ReplyEvent again = last(byCorrelation.get("dup-a-retry"));
        assertThat(byCorrelation.get("dup-a-retry")).as("only the final reply is sent again").hasSize(1);
        assertThat(again.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(again.getRequestId()).isEqualTo("dup-a");
        assertThat(again.getText()).isEqualTo(original.getText());
        assertThat(again.getCitations()).isEqualTo(original.getCitations());

        ReplyEvent conflict = last(byCorrelation.get("dup-a-other"));
        assertThat(byCorrelation.get("dup-a-other")).hasSize(1);
        assertThat(conflict.getType()).isEqualTo(ReplyType.ERROR);
        assertThat(conflict.getError()).isEqualTo("duplicate request id: 'dup-a' was taken within the last 24 h by a request with"
                + " different content; send a new request id");
        assertThat(deadLetters(d -> d.getReason().equals(conflict.getError()), 0)).filteredOn(d -> d.getReason().equals(conflict.getError()))
                .singleElement().satisfies(d -> assertThat(d.getStage()).isEqualTo("query.validate"));

        assertThat(byCorrelation.get("dup-b")).extracting(ReplyEvent::getType).startsWith(ReplyType.ACCEPTED).endsWith(ReplyType.ANSWER)
                .containsOnlyOnce(ReplyType.ACCEPTED, ReplyType.ANSWER);
        List<ReplyEvent> onRetryTopic = repliesByCorrelationId(RETRY_TOPIC, List.of("dup-b-retry")).get("dup-b-retry");
        assertThat(onRetryTopic).extracting(ReplyEvent::getType).containsExactly(ReplyType.ANSWER);
        assertThat(last(onRetryTopic).getText()).isEqualTo(last(byCorrelation.get("dup-b")).getText());

        assertStillServing(); // also orders: every request above was read before the one this posts
        Map<String, Integer> accepted = new HashMap<>();
        Map<String, Integer> audited = new HashMap<>();
        read(REPLY_TOPIC, AvroSerde.of(ReplyEvent.class), e -> {
            if (e.getType() == ReplyType.ACCEPTED || QueryClient.FINAL.contains(e.getType()) && e.getType() != ReplyType.ERROR) {
                accepted.merge(e.getRequestId() + ":" + e.getType(), 1, Integer::sum);
            }
        }, () -> true);
        read(Topics.AUDIT, AvroSerde.of(AnswerAudit.class), a -> audited.merge(a.getRequestId(), 1, Integer::sum), () -> audited.containsKey("dup-b"));
        assertThat(accepted).as("one run per request id").containsEntry("dup-a:ACCEPTED", 1).containsEntry("dup-b:ACCEPTED", 1)
                .containsEntry("dup-b:ANSWER", 1).containsEntry("dup-a:ANSWER", 2);
        assertThat(audited).as("one audit record per request id").containsEntry("dup-a", 1).containsEntry("dup-b", 1);
    }

    @Test
    @Order(4)
    void topKIsHonouredUpToItsMaximum() throws Exception {
        long before = runtime.indexedRowCounts().getOrDefault("medications", 0L);
        String[] drugs = {"Metformin 500 MG", "Atorvastatin 20 MG", "Levothyroxine 50 MCG", "Omeprazole 20 MG", "Losartan 50 MG",
                "Simvastatin 40 MG", "Sertraline 50 MG", "Gabapentin 300 MG", "Furosemide 40 MG", "Warfarin 5 MG", "Tamsulosin 0.4 MG",
                "Montelukast 10 MG"};
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            for (int i = 0; i < drugs.length; i++) {
                s.executeUpdate("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                        + " values (" + (710_001 + i) + ", '" + PATIENT_ID + "', '2024-0" + (1 + i % 9) + "-01', '31" + i + "', '" + drugs[i]
                        + " Oral Tablet', 'Chronic condition')");
            }
        }
        awaitIndexed(before + drugs.length);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            send(producer, REPLY_TOPIC, "top-k-10", REQUESTS.serialize(request("top-k-10", "Which medications does Ida Marwick take?").setTopK(10)
                    .setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications")).build()).build()));
        }
        ReplyEvent answer = last(finalReplies(REPLY_TOPIC, List.of("top-k-10")).get("top-k-10"));
        assertThat(answer.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCitations()).as("top_k 10 gives 10 passages, not 6").hasSize(10)
                .allSatisfy(cit -> assertThat(cit.getTableName()).isEqualTo("medications"));
        assertStillServing();
    }

    /** A new source row flows through CDC and ingest and is cited in an answer; {@code /ready} answers 200. */
    private static void assertStillServing() throws Exception {
        int id = nextMedication++;
        long before = runtime.indexedRowCounts().getOrDefault("medications", 0L);
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                    + " values (" + id + ", '" + PATIENT_ID + "', '2024-10-01', '197361', 'Amlodipine 5 MG Oral Tablet', 'Essential hypertension')");
        }
        awaitIndexed(before + 1);
        String requestId = "after-" + id;
        try (KafkaProducer<String, byte[]> producer = producer()) {
            send(producer, REPLY_TOPIC, requestId, REQUESTS.serialize(request(requestId, "Which patient takes amlodipine for hypertension?")
                    .setFilter(RetrievalFilterSpec.newBuilder().setRowKeys(List.of(Integer.toString(id))).build()).build()));
        }
        ReplyEvent answer = last(finalReplies(REPLY_TOPIC, List.of(requestId)).get(requestId));
        assertThat(answer.getType()).as("the question after the bad input").isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getCitations()).anySatisfy(cit -> assertThat(cit.getRowKey()).isEqualTo(Integer.toString(id)));
        assertReady();
    }

    private static void awaitIndexed(long medications) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (runtime.indexedRowCounts().getOrDefault("medications", 0L) < medications) {
            assertThat(System.nanoTime()).as("%d medication rows indexed", medications).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static void assertReady() throws Exception {
        HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ops.port() + "/ready"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).as("/ready: %s", ready.body()).isEqualTo(200);
    }

    private static ReplyEvent last(List<ReplyEvent> events) {
        assertThat(events).isNotEmpty();
        return events.get(events.size() - 1);
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

    private static Admin admin() {
        return Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers()));
    }

    /** Reply events by request id (or correlation id) from the start of a topic, until each wanted id has a final one. */
    private static Map<String, List<ReplyEvent>> finalReplies(String topic, Collection<String> ids) {
        return replies(topic, ids, e -> new java.util.LinkedHashSet<>(List.of(e.getRequestId(), String.valueOf(e.getCorrelationId()))));
    }

    /** Reply events by correlation id only (for several requests under one request id). */
    private static Map<String, List<ReplyEvent>> repliesByCorrelationId(String topic, Collection<String> correlationIds) {
        return replies(topic, correlationIds, e -> Set.of(String.valueOf(e.getCorrelationId())));
    }

    private static Map<String, List<ReplyEvent>> replies(String topic, Collection<String> ids, java.util.function.Function<ReplyEvent, Set<String>> keys) {
        Map<String, List<ReplyEvent>> byId = new HashMap<>();
        Set<String> finished = new HashSet<>();
        Set<String> wanted = new HashSet<>(ids);
        read(topic, AvroSerde.of(ReplyEvent.class), event -> {
            for (String id : keys.apply(event)) {
                if (wanted.contains(id)) {
                    byId.computeIfAbsent(id, k -> new ArrayList<>()).add(event);
                    if (QueryClient.FINAL.contains(event.getType())) {
                        finished.add(id);
                    }
                    return;
                }
            }
        }, () -> finished.containsAll(wanted));
        return byId;
    }

    private static List<DeadLetter> deadLetters(Predicate<DeadLetter> needed, long atLeast) {
        List<DeadLetter> out = new ArrayList<>();
        read(Topics.DEAD_LETTER, AvroSerde.of(DeadLetter.class), out::add,
                () -> out.size() >= atLeast && out.stream().filter(needed).count() >= (atLeast == 0 ? 1 : 2));
        return out;
    }

    private static Map<TopicPartition, Long> endOffsets(List<String> topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            }
            return new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
        }
    }

    private static Map<Integer, Long> offsetsOf(Map<TopicPartition, Long> offsets, String topic) {
        Map<Integer, Long> out = new TreeMap<>();
        offsets.forEach((tp, offset) -> {
            if (tp.topic().equals(topic)) {
                out.put(tp.partition(), offset);
            }
        });
        return out;
    }

    private static long sum(Map<TopicPartition, Long> offsets, String topic) {
        return offsetsOf(offsets, topic).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Every record written to {@code topic} after {@code before} is a readable {@code T}. */
    private static <T> void assertEveryRecordSince(Map<TopicPartition, Long> before, String topic, Deserializer<T> values) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>(offsetsOf(before, topic).keySet().stream().map(i -> new TopicPartition(topic, i)).toList());
            consumer.assign(partitions);
            partitions.forEach(tp -> consumer.seek(tp, before.get(tp)));
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("%s read to its end", topic).isLessThan(deadline);
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(r.value()).as("record at %s-%d@%d", topic, r.partition(), r.offset()).isNotNull();
                    assertThat(values.deserialize(topic, r.value())).isNotNull();
                }
            }
        }
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
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            // read at least to the end seen at the start, then on until done
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) || !done.getAsBoolean()) {
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
