package org.chartstream.app.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.replica.IndexLogApplier;
import org.chartstream.schemas.GenerationState;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * Reopens the Lucene store a killed pipeline left behind and compares what its readers see with the index log
 * replayed into a fresh store up to the log offsets recorded in the reopened store's last commit: a commit must be
 * exactly "the log up to these offsets", whatever the writer had applied, flushed or not, when the process died.
 * Independently of the replay, the table's active generation must agree with the publication markers below those
 * offsets: published only if every partition's marker is, otherwise still the previous one.
 */
final class CrashedStoreCheck {
    private static final String OFFSET_KEY = "offset." + Topics.INDEX + ".";

    /**
     * @param activeGeneration the table's active generation in the reopened store
     * @param markerPartitions partitions whose marker of the checked generation lies below the checkpoint
     * @param pendingMarkers the checkpoint's entries for markers still waiting for other partitions
     * @param gap per partition, index-log records after the checkpoint (what a restart replays)
     * @param differences what the reopened store serves differently from the replay (empty when equal)
     */
    record Result(long activeGeneration, Set<Integer> markerPartitions, Map<String, String> pendingMarkers,
                  Map<Integer, Long> gap, List<String> differences) {
    }

    private CrashedStoreCheck() {
    }

    static Result check(Path storeDir, Path scratch, String bootstrap, TableRef table, long generation) {
        try (LuceneHybridStore crashed = LuceneHybridStore.open(storeDir);
             LuceneHybridStore replay = LuceneHybridStore.open(scratch);
             KafkaConsumer<String, IndexEvent> consumer = consumer(bootstrap)) {
            Map<String, String> checkpoint = crashed.checkpoint();
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.INDEX, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            Map<TopicPartition, Long> upTo = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
            for (TopicPartition tp : partitions) {
                String offset = checkpoint.get(OFFSET_KEY + tp.partition());
                if (offset == null) {
                    throw new AssertionError("the reopened store's checkpoint has no offset for " + tp + ": " + checkpoint.keySet());
                }
                upTo.put(tp, Long.parseLong(offset));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            IndexLogApplier applier = new IndexLogApplier(replay, partitions.size(), Map.of());
            Set<String> keys = new TreeSet<>();
            Set<Integer> markerPartitions = new TreeSet<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < upTo.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read the index log up to the checkpoint " + upTo);
                }
                for (ConsumerRecord<String, IndexEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    IndexEvent e = r.value();
                    if (r.offset() >= upTo.get(tp) || e == null) {
                        continue;
                    }
                    applier.apply(e, r.partition());
                    if (e.getSourceId().equals(table.sourceId()) && e.getTableName().equals(table.table())) {
                        if (e.getKind() == IndexEventKind.MARKER) {
                            if (e.getGeneration() == generation && e.getMarker() != null
                                    && e.getMarker().getState() == GenerationState.PUBLISHED) {
                                markerPartitions.add(r.partition());
                            }
                        } else {
                            keys.add(e.getRowKey());
                        }
                    }
                }
            }
            replay.commit(Map.of());

            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<Integer, Long> gap = new TreeMap<>();
            upTo.forEach((tp, offset) -> gap.put(tp.partition(), ends.get(tp) - offset));
            Map<String, String> pending = new TreeMap<>();
            checkpoint.forEach((k, v) -> {
                if (k.startsWith("marker.")) {
                    pending.put(k, v);
                }
            });
            long active = crashed.activeGenerations().getOrDefault(table, 0L);
            return new Result(active, markerPartitions, pending, gap, differences(crashed, replay, table, keys));
        }
    }

    /**
     * Brings the store to the state a materializer leaves when its last poll returned only {@code partition}'s
     * records, up to and including that partition's marker of {@code generation}, and it then committed (offsets and
     * the marker still waiting for the other partitions, as {@link org.chartstream.replica.IndexMaterializer}
     * commits them) and died. Returns the committed checkpoint.
     */
    static Map<String, String> commitOnePartitionPastItsMarker(Path storeDir, String bootstrap, TableRef table, long generation,
                                                               int partition) {
        try (LuceneHybridStore store = LuceneHybridStore.open(storeDir);
             KafkaConsumer<String, IndexEvent> consumer = consumer(bootstrap)) {
            Map<String, String> checkpoint = store.checkpoint();
            int partitions = consumer.partitionsFor(Topics.INDEX, Duration.ofSeconds(30)).size();
            IndexLogApplier applier = new IndexLogApplier(store, partitions, checkpoint);
            TopicPartition tp = new TopicPartition(Topics.INDEX, partition);
            consumer.assign(List.of(tp));
            consumer.seek(tp, Long.parseLong(checkpoint.get(OFFSET_KEY + partition)));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            long next = -1;
            while (next < 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no marker of generation " + generation + " on " + tp + " after the checkpoint");
                }
                for (ConsumerRecord<String, IndexEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    if (next >= 0 || r.value() == null) {
                        continue;
                    }
                    applier.apply(r.value(), partition);
                    IndexEvent e = r.value();
                    if (e.getKind() == IndexEventKind.MARKER && e.getGeneration() == generation
                            && e.getSourceId().equals(table.sourceId()) && e.getTableName().equals(table.table())) {
                        next = r.offset() + 1;
                    }
                }
            }
            Map<String, String> committed = new TreeMap<>(checkpoint);
            committed.keySet().removeIf(k -> k.startsWith("marker."));
            committed.put(OFFSET_KEY + partition, Long.toString(next));
            committed.putAll(applier.pendingMarkerCheckpoint());
            store.commit(committed);
            return committed;
        }
    }

    /**
     * True when the store in {@code storeDir}, still open in a running pipeline, has durably committed the index log
     * up to {@code positions} on every partition.
     */
    static boolean committedUpTo(Path storeDir, Map<Integer, Long> positions) {
        Map<String, String> checkpoint;
        try {
            checkpoint = LuceneHybridStore.lastCommittedCheckpoint(storeDir);
        } catch (java.io.UncheckedIOException e) {
            return false; // the running writer replaced the commit while it was read: ask again
        }
        return positions.entrySet().stream().allMatch(p -> {
            String committed = checkpoint.get(OFFSET_KEY + p.getKey());
            return committed != null && Long.parseLong(committed) >= p.getValue();
        });
    }

    private static List<String> differences(LuceneHybridStore crashed, LuceneHybridStore replay, TableRef table, Set<String> keys) {
        List<String> diff = new ArrayList<>();
        Long crashedActive = crashed.activeGenerations().get(table);
        Long replayActive = replay.activeGenerations().get(table);
        if (!java.util.Objects.equals(crashedActive, replayActive)) {
            diff.add("active generation " + crashedActive + ", replay " + replayActive);
        }
        if (crashed.countRows(table) != replay.countRows(table)) {
            diff.add("rows " + crashed.countRows(table) + ", replay " + replay.countRows(table));
        }
        for (String key : keys) {
            RowRef row = new RowRef(table.sourceId(), table.table(), key);
            List<String> got = describe(crashed.rowChunks(row));
            List<String> want = describe(replay.rowChunks(row));
            if (!got.equals(want)) {
                diff.add("row " + key + ": " + got.size() + " chunks " + (got.isEmpty() ? "" : "of generation "
                        + got.get(0).split("@")[1]) + ", replay " + want.size());
            }
        }
        return diff;
    }

    /** Chunk id @ generation # text hash: what a reader of the row sees (no texts in messages). */
    private static List<String> describe(List<StoredChunk> chunks) {
        return chunks.stream().map(c -> c.chunkId() + "@" + c.generation() + "#" + IndexConvergence.hash(List.of(c.text()))).toList();
    }

    private static KafkaConsumer<String, IndexEvent> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        return new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(IndexEvent.class));
    }
}
