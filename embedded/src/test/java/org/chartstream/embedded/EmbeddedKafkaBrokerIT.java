package org.chartstream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The embedded KRaft node: idempotent topic creation, transactions, a restart in place (same ports) and a restart on
 * the same data directory.
 */
class EmbeddedKafkaBrokerIT {

    @Test
    void keepsTopicsAndRecordsAcrossARestart() throws Exception {
        Path dir = Path.of("target", "it", "EmbeddedKafkaBrokerIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(dir);
        String clusterId;
        long t0 = System.nanoTime();
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().numPartitions(2).start(dir)) {
            System.out.printf("[EmbeddedKafkaBrokerIT] first start %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(kafka.formattedOnStart()).isTrue();
            clusterId = kafka.clusterId();
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            kafka.createTopics(Map.of("it.explicit", 3));
            kafka.createTopics(Map.of("it.explicit", 3, "it.second", 1)); // idempotent, adds the missing one
            try (Admin admin = Admin.create(kafka.clientProperties())) {
                assertThat(admin.describeTopics(List.of("it.explicit")).allTopicNames().get()
                        .get("it.explicit").partitions()).hasSize(3);
            }
            // transactional producer: needs the transaction-state topic with RF 1 / min ISR 1
            try (KafkaProducer<String, String> producer = producer(kafka.bootstrapServers())) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("it.explicit", "k" + i, "v" + i));
                }
                producer.send(new ProducerRecord<>("it.auto", "k", "auto-created")); // num.partitions = 2
                producer.commitTransaction();
            }
            try (Admin admin = Admin.create(kafka.clientProperties())) {
                assertThat(admin.describeTopics(List.of("it.auto")).allTopicNames().get()
                        .get("it.auto").partitions()).hasSize(2);
            }
            assertThat(readAll(kafka.bootstrapServers(), "g1", "it.explicit", 3)).hasSize(3);

            // restart in place: same data, same address, so clients that know the old address carry on
            String bootstrap = kafka.bootstrapServers();
            long tr = System.nanoTime();
            kafka.restart();
            System.out.printf("[EmbeddedKafkaBrokerIT] restart in place %d ms%n", (System.nanoTime() - tr) / 1_000_000);
            assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
            assertThat(kafka.formattedOnStart()).isFalse();
            assertThat(kafka.clusterId()).isEqualTo(clusterId);
            assertThat(readAll(bootstrap, "g0", "it.explicit", 3)).hasSize(3);
        }

        long t1 = System.nanoTime();
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(dir)) {
            System.out.printf("[EmbeddedKafkaBrokerIT] restart %d ms%n", (System.nanoTime() - t1) / 1_000_000);
            assertThat(kafka.formattedOnStart()).isFalse();
            assertThat(kafka.clusterId()).isEqualTo(clusterId);
            try (Admin admin = Admin.create(kafka.clientProperties())) {
                assertThat(admin.listTopics().names().get()).contains("it.explicit", "it.second", "it.auto");
            }
            List<ConsumerRecord<String, String>> records = readAll(kafka.bootstrapServers(), "g2", "it.explicit", 3);
            assertThat(records).extracting(ConsumerRecord::value).containsExactlyInAnyOrder("v0", "v1", "v2");
        }
        System.out.printf("[EmbeddedKafkaBrokerIT] total %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-tx");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    private static List<ConsumerRecord<String, String>> readAll(String bootstrap, String group, String topic,
                                                                int expected) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group); // a consumer group: needs the offsets topic with RF 1
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            }
            consumer.commitSync();
        }
        return out;
    }
}
