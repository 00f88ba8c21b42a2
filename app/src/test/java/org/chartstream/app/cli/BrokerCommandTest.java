package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.chartstream.app.Main;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BrokerCommandTest {
    @TempDir
    Path dir;

    @Test
    void theBrokerPrintsItsAddressServesClientsThereAndStopsWhenAsked() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        CountDownLatch stop = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread broker = new Thread(() -> {
            try {
                BrokerCommand.serve(dir.resolve("kafka"), 0, 1, new PrintStream(printed, true, StandardCharsets.UTF_8), stop);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        broker.start();
        String bootstrap = awaitAddress(printed, failure);

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                     ConsumerConfig.GROUP_ID_CONFIG, "broker-command-test", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                     new StringDeserializer(), new StringDeserializer())) {
            producer.send(new ProducerRecord<>("broker-command-test", "k", "v")).get();
            consumer.subscribe(List.of("broker-command-test"));
            String value = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (value == null && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                value = records.isEmpty() ? null : records.iterator().next().value();
            }
            assertThat(value).as("the record read back through the printed address").isEqualTo("v");
        }

        stop.countDown();
        broker.join(Duration.ofSeconds(60));
        assertThat(broker.isAlive()).as("the broker closed once asked to stop").isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void aBadPartitionCountIsRefusedWithExitCodeTwoNamingTheOption() {
        StringWriter err = new StringWriter();
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new Main()).setErr(new java.io.PrintWriter(err))
                    .execute("broker", "--dir", dir.resolve("kafka").toString(), "--partitions", "0");
            assertThat(code).isEqualTo(2);
        } finally {
            System.setErr(original);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("--partitions");
    }

    private static String awaitAddress(ByteArrayOutputStream printed, AtomicReference<Throwable> failure) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(failure.get()).as("the broker failed to start").isNull();
            String text = printed.toString(StandardCharsets.UTF_8);
            for (String line : text.lines().toList()) {
                if (line.startsWith(EmbeddedKafkaBroker.BOOTSTRAP_LINE_PREFIX)) {
                    return line.substring(EmbeddedKafkaBroker.BOOTSTRAP_LINE_PREFIX.length());
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no address printed within a minute");
    }
}
