package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.client.QueryClient;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/** What the source-integrity ITs check after every hostile input: dead letters arrived, and the pipeline still serves. */
final class ServingProbe {
    static final Duration WAIT = Duration.ofSeconds(120);
    private final PipelineRuntime runtime;
    private final String replyTopic;
    private int asked;

    ServingProbe(PipelineRuntime runtime, String replyTopic) {
        this.runtime = runtime;
        this.replyTopic = replyTopic;
        runtime.createTopics(java.util.Map.of(replyTopic, 1));
    }

    static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The HTTP status of the operations endpoint's {@code /ready}. */
    static int ready(int port) throws java.io.IOException, InterruptedException {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/ready")).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@link #WAIT}. */
    static void await(String what, Supplier<Boolean> condition) throws InterruptedException {
        await(what, WAIT, condition);
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@code wait}. */
    static void await(String what, Duration wait, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.get()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** The final reply to a question: asserts it is an answer citing a row of {@code table} with key {@code rowKey}. */
    void answersCiting(String question, String table, String rowKey) {
        String id = "probe-" + (++asked);
        List<ReplyEvent> events;
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), replyTopic)) {
            events = client.ask(QueryRequest.newBuilder().setRequestId(id).setConversationId("conv-" + id).setUserId("it")
                    .setQuestion(question).setTopK(3).build(), WAIT, e -> { });
        }
        assertThat(events).as("replies to %s", id).isNotEmpty();
        ReplyEvent last = events.get(events.size() - 1);
        assertThat(last.getType()).as("final reply to '%s'", question).isEqualTo(ReplyType.ANSWER);
        assertThat(last.getCitations()).as("citations answering '%s'", question)
                .anySatisfy(c -> {
                    assertThat(c.getTableName()).isEqualTo(table);
                    assertThat(c.getRowKey()).isEqualTo(rowKey);
                });
    }

    /** Dead letters from the start of the topic until {@code count} of them match {@code wanted}; returns those. */
    List<DeadLetter> deadLetters(Predicate<DeadLetter> wanted, int count) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, runtime.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<DeadLetter> out = new ArrayList<>();
        try (KafkaConsumer<String, DeadLetter> consumer = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(DeadLetter.class))) {
            TopicPartition tp = new TopicPartition(Topics.DEAD_LETTER, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (out.size() < count) {
                assertThat(System.nanoTime()).as("%d wanted dead letters within %s (found %s)", count, WAIT, out).isLessThan(deadline);
                for (ConsumerRecord<String, DeadLetter> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null && wanted.test(r.value())) {
                        out.add(r.value());
                    }
                }
            }
        }
        return out;
    }
}
