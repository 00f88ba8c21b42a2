package org.chartstream.query.request;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reply topics checked against the broker's topic list. Writing to a missing topic would block the stream thread
 * for the producer's {@code max.block.ms} (or auto-create a topic any client can name), so a request naming one is
 * rejected instead. Known topics are cached; an unknown name refreshes the list at most every
 * {@link #REFRESH_AFTER}. When the broker cannot be asked, topics are assumed to exist: a good request is never
 * rejected because the check itself failed.
 */
public final class KafkaReplyTopics implements ReplyTopics {
    static final Duration REFRESH_AFTER = Duration.ofMillis(200);
    private static final Duration LIST_TIMEOUT = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(KafkaReplyTopics.class);

    private final Admin admin;
    private volatile Set<String> known = Set.of();
    private long refreshedNanos = System.nanoTime() - REFRESH_AFTER.toNanos();

    private KafkaReplyTopics(Admin admin) {
        this.admin = admin;
    }

    /** From a Kafka Streams application's configuration (bootstrap servers and security settings). */
    public static ReplyTopics fromStreamsConfig(Map<String, Object> streamsConfig) {
        Map<String, Object> props = new HashMap<>();
        Set<String> adminKeys = AdminClientConfig.configNames();
        streamsConfig.forEach((k, v) -> {
            if (adminKeys.contains(k) && v != null) {
                props.put(k, v);
            }
        });
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-reply-topics");
        try {
            return new KafkaReplyTopics(Admin.create(props));
        } catch (RuntimeException e) {
            LOG.warn("cannot check reply topics ({}); replies go to the named topics unchecked", e.getClass().getSimpleName());
            return topic -> true;
        }
    }

    @Override
    public synchronized boolean exists(String topic) {
        if (known.contains(topic)) {
            return true;
        }
        if (System.nanoTime() - refreshedNanos < REFRESH_AFTER.toNanos()) {
            return false;
        }
        try {
            known = Set.copyOf(admin.listTopics(new ListTopicsOptions().timeoutMs((int) LIST_TIMEOUT.toMillis()))
                    .names().get(LIST_TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS));
            refreshedNanos = System.nanoTime();
            return known.contains(topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        } catch (Exception e) {
            LOG.warn("cannot list topics to check a reply topic ({}); assuming it exists", e.getClass().getSimpleName());
            return true;
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
