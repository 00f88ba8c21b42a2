package org.chartstream.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.schemas.EmbeddedChunks;
import org.chartstream.schemas.EmbeddingProgress;
import org.chartstream.schemas.IngestTableStatus;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * What a snapshot under way has done so far, for the progress line of a wait: the newest ingest status of each table
 * (rows staged in the generation being built) and the newest progress of each embedding task (chunks of it embedded),
 * read from the compacted status and progress topics as they are written. A record it cannot read is passed over
 * (the status command names such records); this only words a progress line.
 */
final class IngestProgressTail implements AutoCloseable {
    private static final AvroSerde<IngestTableStatus> STATUS = AvroSerde.of(IngestTableStatus.class);
    private static final AvroSerde<EmbeddingProgress> PROGRESS = AvroSerde.of(EmbeddingProgress.class);
    private static final int MAX_POLLS = 20;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, IngestTableStatus> statuses = new HashMap<>();
    private final Map<String, EmbeddingProgress> progress = new HashMap<>();

    IngestProgressTail(String bootstrapServers, Map<String, String> security) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "chartstream-progress-tail");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new java.util.ArrayList<>();
        for (String topic : List.of(Topics.INGEST_STATUS, Topics.INGEST_PROGRESS)) {
            try {
                consumer.partitionsFor(topic, Duration.ofSeconds(5)).forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            } catch (KafkaException e) {
                // not there (yet): the progress lines then count searchable rows only
            }
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads what has been written since the last call, a bounded number of polls of at most {@code wait} each. */
    void poll(Duration wait) {
        for (int i = 0; i < MAX_POLLS; i++) {
            ConsumerRecords<String, byte[]> records = consumer.poll(wait);
            if (records.isEmpty()) {
                return;
            }
            records.forEach(this::keep);
        }
    }

    private void keep(ConsumerRecord<String, byte[]> r) {
        if (r.value() == null || r.key() == null) {
            return;
        }
        if (r.topic().equals(Topics.INGEST_STATUS)) {
            IngestTableStatus s = STATUS.tryDeserialize(r.value());
            if (s != null) {
                statuses.put(r.key(), s);
            }
        } else {
            EmbeddingProgress e = PROGRESS.tryDeserialize(r.value());
            if (e != null) {
                progress.put(r.key(), e);
            }
        }
    }

    /**
     * {@code " (staged R, E/C chunks embedded)"} once the ingest side has a generation of {@code source:table}: R rows
     * written to it (the staged generation's, or all the table's once the planner has seen its last row), E of its
     * chunks embedded over every embedding task, C chunks of those rows. The planner closes a snapshot's generation
     * when it has read the last row; its publish marker reaches the index only after every row before it has been
     * embedded, which on a large table is most of the wait.
     */
    String snapshotProgress(String tableKey) {
        IngestTableStatus s = statuses.get(tableKey);
        long generation = s == null ? 0 : s.getStagedGeneration() > 0 ? s.getStagedGeneration() : s.getActiveGeneration();
        if (generation == 0) {
            return "";
        }
        long embedded = EmbeddedChunks.of(progress.values(), tableKey, generation);
        long rows = s.getStagedGeneration() > 0 ? s.getStagedRows() : s.getRows();
        return " (staged " + rows + ", " + embedded + "/" + s.getChunks() + " chunks embedded)";
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
