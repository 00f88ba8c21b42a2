package org.chartstream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * The freshness bench's view of its own changes on the way through: plain consumers (all partitions, from the end at
 * start) on the change topic and on the index log, read_uncommitted (when the ingest wrote the upsert) and
 * read_committed (when its transaction committed). A change is found by its row key (at least {@code firstRowKey})
 * and its change number, which the bench writes into the row's description as {@code lot<number>x}.
 */
final class FreshnessRecordWatch implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CHANGE_NUMBER = Pattern.compile("Tablet lot(\\d+)x");

    /** change number → {@code source.ts_ms} of the Debezium envelope (the source commit). */
    private final Map<Integer, Long> sourceCommitMs = new ConcurrentHashMap<>();
    /** change number → the change-topic record's Kafka timestamp (Debezium's produce). */
    private final Map<Integer, Long> changeTopicMs = new ConcurrentHashMap<>();
    /** change number → the index-log upsert's Kafka timestamp (the ingest topology's flush, taken before embedding). */
    private final Map<Integer, Long> ingestFlushMs = new ConcurrentHashMap<>();
    /** change number → wall clock when a read_uncommitted consumer received the upsert (written, not yet committed). */
    private final Map<Integer, Long> indexWrittenMs = new ConcurrentHashMap<>();
    /** change number → wall clock when a read_committed consumer received the upsert (transaction committed). */
    private final Map<Integer, Long> indexCommittedMs = new ConcurrentHashMap<>();
    private final List<Thread> pollers = new ArrayList<>();
    private final List<RuntimeException> failures = new ArrayList<>();
    private final int firstRowKey;
    private volatile boolean running = true;

    FreshnessRecordWatch(String bootstrap, Map<String, String> clientProperties, String topicPrefix, String table, int firstRowKey) {
        this.firstRowKey = firstRowKey;
        KafkaConsumer<String, String> changes = new KafkaConsumer<>(properties(bootstrap, clientProperties, "read_uncommitted"),
                new StringDeserializer(), new StringDeserializer());
        KafkaConsumer<String, IndexEvent> written = new KafkaConsumer<>(properties(bootstrap, clientProperties, "read_uncommitted"),
                new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        KafkaConsumer<String, IndexEvent> committed = new KafkaConsumer<>(properties(bootstrap, clientProperties, "read_committed"),
                new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        fromEnd(changes, changeTopic(changes, topicPrefix, table));
        fromEnd(written, Topics.INDEX);
        fromEnd(committed, Topics.INDEX);
        poll("freshness-change-topic", changes, r -> {
            Integer change = changeNumber(r.key(), r.value());
            if (change != null) {
                changeTopicMs.putIfAbsent(change, r.timestamp());
                sourceCommitMs.putIfAbsent(change, readTree(r.value()).path("source").path("ts_ms").asLong());
            }
        });
        poll("freshness-index-written", written, r -> {
            long arrived = System.currentTimeMillis();
            Integer change = changeNumber(table, r.value());
            if (change != null) {
                ingestFlushMs.putIfAbsent(change, r.timestamp());
                indexWrittenMs.putIfAbsent(change, arrived);
            }
        });
        poll("freshness-index-committed", committed, r -> {
            long arrived = System.currentTimeMillis();
            Integer change = changeNumber(table, r.value());
            if (change != null) {
                indexCommittedMs.putIfAbsent(change, arrived);
            }
        });
    }

    /**
     * The hops of change {@code change}, once all its records were seen (waiting up to {@code timeout}); null if one
     * of them was not seen in time.
     */
    FreshnessHops hops(int change, long searchableMs, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!(sourceCommitMs.containsKey(change) && indexWrittenMs.containsKey(change) && indexCommittedMs.containsKey(change))) {
            synchronized (failures) {
                if (!failures.isEmpty()) {
                    throw failures.get(0);
                }
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(2);
        }
        return new FreshnessHops(sourceCommitMs.get(change), changeTopicMs.get(change), ingestFlushMs.get(change),
                indexWrittenMs.get(change), indexCommittedMs.get(change), searchableMs);
    }

    /** The change number of a change-topic record of a bench row (key {@code {"<pk>":n}}, n at least the first). */
    private Integer changeNumber(String key, String value) {
        if (key == null || value == null) {
            return null;
        }
        JsonNode row = readTree(key);
        JsonNode pk = row.elements().hasNext() ? row.elements().next() : null;
        if (pk == null || !pk.canConvertToInt() || pk.asInt() < firstRowKey) {
            return null;
        }
        return changeNumberIn(readTree(value).path("after").path("description").asText(""));
    }

    /** The change number of an index-log upsert of a bench row. */
    private Integer changeNumber(String table, IndexEvent event) {
        if (event == null || event.getKind() != IndexEventKind.UPSERT_ROW || !table.equals(event.getTableName())
                || event.getRowKey() == null || !isBenchRow(event.getRowKey())) {
            return null;
        }
        for (ChunkRecord chunk : event.getChunks()) {
            Integer change = changeNumberIn(chunk.getText());
            if (change != null) {
                return change;
            }
        }
        return null;
    }

    private boolean isBenchRow(String rowKey) {
        try {
            return Integer.parseInt(rowKey) >= firstRowKey;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Integer changeNumberIn(String text) {
        Matcher m = CHANGE_NUMBER.matcher(text);
        return m.find() ? Integer.valueOf(m.group(1)) : null;
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable JSON on the change topic", e);
        }
    }

    private static Properties properties(String bootstrap, Map<String, String> clientProperties, String isolation) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        return p;
    }

    /** Debezium's topic of the table: {@code <topicPrefix>.<namespace>.<table>}. */
    private static String changeTopic(KafkaConsumer<?, ?> consumer, String topicPrefix, String table) {
        List<String> topics = consumer.listTopics(Duration.ofSeconds(30)).keySet().stream()
                .filter(t -> t.startsWith(topicPrefix + ".") && t.endsWith("." + table)
                        && t.substring(topicPrefix.length() + 1).indexOf('.') == t.length() - topicPrefix.length() - table.length() - 2)
                .toList();
        if (topics.size() != 1) {
            throw new IllegalStateException("expected one change topic for table " + table + " under " + topicPrefix + ", found " + topics);
        }
        return topics.get(0);
    }

    private static void fromEnd(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolve the end now, before the first change
    }

    private <V> void poll(String name, KafkaConsumer<String, V> consumer, Consumer<ConsumerRecord<String, V>> onRecord) {
        Thread thread = new Thread(() -> {
            try (consumer) {
                while (running) {
                    for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(100))) {
                        onRecord.accept(r);
                    }
                }
            } catch (RuntimeException e) {
                synchronized (failures) {
                    failures.add(e);
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        pollers.add(thread);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread thread : pollers) {
            thread.join(5_000);
        }
    }
}
