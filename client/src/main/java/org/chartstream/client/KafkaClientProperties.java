package org.chartstream.client;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** Settings the app's own Kafka clients share. */
public final class KafkaClientProperties {
    private KafkaClientProperties() {
    }

    /**
     * A consumer of assigned partitions that sees committed (transactional) records only and commits no offsets.
     *
     * @param overrides further settings, e.g. the transport security of an external broker
     */
    public static Properties readCommittedConsumer(String bootstrapServers, Map<String, ?> overrides, String clientId) {
        Properties p = new Properties();
        p.putAll(overrides);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return p;
    }
}
