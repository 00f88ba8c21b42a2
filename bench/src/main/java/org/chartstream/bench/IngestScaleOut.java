package org.chartstream.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.TableRef;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.embedded.EmbeddedPostgresSource;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.PipelineTopics;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * The ingest half of {@code bench scaleout}: the same snapshot of the synthetic dataset ingested by one
 * {@code run --role ingest} process and then by {@code instances} of them (the first captures, the others run with
 * {@code ingest.capture=false}), each a JVM of its own with the embedding model on one ONNX thread, each run on a
 * fresh broker (a {@code chartstream broker} JVM of its own, {@link BrokerProcess}, so that its JIT and its options are its
 * own) and a fresh PostgreSQL that this JVM starts. Throughput is the chunks of the snapshot over the time from
 * the first row event on the index log to the last table's marker on every partition (read_committed, so what a
 * store could apply). Afterwards each run's index log must hold every source row (row keys per table against the
 * source's counts) and both runs the same row keys with the same chunk texts (content hashes).
 */
public final class IngestScaleOut {
    /** One ingest run: what reached the index log, and when. */
    record Run(int instances, long chunks, double seconds, Map<String, Long> rowsPerTable, Map<String, String> contentHashes,
               Map<String, Long> chunksPerInstance, Map<String, String> cpuJson) {
        double chunksPerSecond() {
            return chunks / seconds;
        }
    }

    /** Both runs and whether the index equals the source after each. */
    public record Result(Run single, Run scaled, Map<String, Integer> sourceRows, int partitions, List<String> jvmOptions,
                  List<String> brokerJvmOptions) {
        boolean indexEqualsSource() {
            Map<String, Long> expected = sourceRows.entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> (long) e.getValue(), (a, b) -> a, TreeMap::new));
            return new TreeMap<>(single.rowsPerTable()).equals(expected) && new TreeMap<>(scaled.rowsPerTable()).equals(expected)
                    && single.contentHashes().equals(scaled.contentHashes());
        }

        /**
         * Per table where the runs and the source disagree: row counts (source, single, scaled) and the rows whose chunk
         * texts differ between the runs; empty when {@link #indexEqualsSource()}. Counts only, no row keys or texts.
         */
        Map<String, String> mismatches() {
            Map<String, String> out = new TreeMap<>();
            for (String table : sourceRows.keySet()) {
                long source = sourceRows.get(table);
                long singleRows = single.rowsPerTable().getOrDefault(table, 0L);
                long scaledRows = scaled.rowsPerTable().getOrDefault(table, 0L);
                long differing = single.contentHashes().entrySet().stream()
                        .filter(e -> e.getKey().startsWith(table + ":") && !e.getValue().equals(scaled.contentHashes().get(e.getKey())))
                        .count();
                if (source != singleRows || source != scaledRows || differing > 0) {
                    out.put(table, String.format(Locale.ROOT, "source %d rows, single %d, scaled %d, chunk texts differ in %d",
                            source, singleRows, scaledRows, differing));
                }
            }
            return out;
        }

        public String json() {
            StringBuilder perInstance = new StringBuilder("{");
            new TreeMap<>(scaled.chunksPerInstance()).forEach((name, n) -> perInstance.append(perInstance.length() > 1 ? ", " : "")
                    .append('"').append(name).append("\":").append(n));
            perInstance.append('}');
            return String.format(Locale.ROOT, "{\"instances\":%d, \"partitions\":%d, \"rows\":%d, \"chunks\":%d, \"chunks_per_s\":%.2f,"
                            + " \"single_chunks_per_s\":%.2f, \"ratio\":%.2f, \"seconds\":%.1f, \"single_seconds\":%.1f,"
                            + " \"chunks_per_instance\":%s, \"index_equals_source\":%b",
                    scaled.instances(), partitions, scaled.rowsPerTable().values().stream().mapToLong(Long::longValue).sum(),
                    scaled.chunks(), scaled.chunksPerSecond(), single.chunksPerSecond(),
                    scaled.chunksPerSecond() / single.chunksPerSecond(), scaled.seconds(), single.seconds(), perInstance, indexEqualsSource())
                    + mismatchesJson() + ", \"cpu_s\":" + cpuJson(scaled) + ", \"single_cpu_s\":" + cpuJson(single)
                    + ", \"jvm_options\":\"" + String.join(" ", jvmOptions) + "\", \"broker_jvm_options\":\""
                    + String.join(" ", brokerJvmOptions) + "\"}";
        }

        private static String cpuJson(Run run) {
            return new TreeMap<>(run.cpuJson()).entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                    .collect(Collectors.joining(", ", "{", "}"));
        }

        private String mismatchesJson() {
            if (indexEqualsSource()) {
                return "";
            }
            String body = mismatches().entrySet().stream().map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                    .collect(Collectors.joining(", "));
            return ", \"mismatches\":{" + body + "}";
        }
    }

    private IngestScaleOut() {
    }

    /** How the ingest instances and the broker are started: each a JVM of its own, with its own options. */
    public record Launchers(QueryInstanceProcess.Launcher instance, List<String> instanceJvmOptions, QueryInstanceProcess.Launcher broker,
                     List<String> brokerJvmOptions) {
    }

    /** The chunks each ingest instance embedded, by instance, read from the broker at {@code bootstrapServers}'s progress topic. */
    @FunctionalInterface
    public interface EmbeddedChunks {
        Map<String, Long> perInstance(String bootstrapServers) throws Exception;
    }

    public static Result run(ChartstreamConfig config, ClinicalDataset dataset, int instances, int partitions, Launchers launchers,
                             EmbeddedChunks embedded, Path work, Consumer<String> progress) throws Exception {
        Map<String, Integer> sourceRows = new TreeMap<>();
        Run single = ingest(config, dataset, 1, partitions, launchers, embedded, work.resolve("single"), progress, sourceRows);
        progress.accept(String.format(Locale.ROOT, "ingest, 1 instance: %d chunks in %.1f s", single.chunks(), single.seconds()));
        Run scaled = ingest(config, dataset, instances, partitions, launchers, embedded, work.resolve("scaled"), progress, sourceRows);
        progress.accept(String.format(Locale.ROOT, "ingest, %d instances: %d chunks in %.1f s", instances, scaled.chunks(), scaled.seconds()));
        return new Result(single, scaled, sourceRows, partitions, launchers.instanceJvmOptions(), launchers.brokerJvmOptions());
    }

    private static Run ingest(ChartstreamConfig config, ClinicalDataset dataset, int instances, int partitions, Launchers launchers,
                              EmbeddedChunks embedded, Path dir, Consumer<String> progress, Map<String, Integer> sourceRows) throws Exception {
        Files.createDirectories(dir);
        String sourceId = config.sourceIds().getFirst();
        List<String> tables = config.sourceList(sourceId, "tables");
        QueryInstanceProcess.Launcher launcher = launchers.instance();
        try (BrokerProcess kafka = BrokerProcess.start(launchers.broker(), dir.resolve("kafka"), dir.resolve("broker.log"));
             EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(dir.resolve("postgres"))) {
            try (Connection c = pg.connection()) {
                Map<String, Integer> loaded = ClinicalDatasetLoader.load(c, dataset);
                sourceRows.clear();
                loaded.forEach((table, n) -> sourceRows.put(new TableRef(sourceId, table).id(), n));
            }
            PipelineTopics.ensure(kafka.bootstrapServers(), List.of(new PipelineTopics.Spec(Topics.INDEX, partitions, false)), List.of());
            List<QueryInstanceProcess> processes = new ArrayList<>();
            try (KafkaConsumer<String, IndexEvent> index = indexConsumer(kafka.bootstrapServers())) {
                // the instances that only embed join the group first, so that the capturing one's snapshot finds them there
                for (int i = instances - 1; i >= 0; i--) {
                    Map<String, String> own = instanceConfiguration(config, kafka.bootstrapServers(), pg, partitions, dir.resolve("ingest-" + i));
                    if (i > 0) {
                        own.put("ingest.capture", "false");
                    }
                    processes.add(QueryInstanceProcess.start(launcher, "ingest-" + i, "ingest", own, dir.resolve("ingest-" + i + ".properties"),
                            dir.resolve("ingest-" + i + ".log")));
                    if (i > 0) {
                        awaitGroupMembers(kafka.bootstrapServers(), instances - i, processes, kafka);
                    }
                }
                Run run = follow(index, tables, sourceId, instances, partitions, processes, kafka, pg.dataDirectory());
                return new Run(run.instances(), run.chunks(), run.seconds(), run.rowsPerTable(), run.contentHashes(),
                        embedded.perInstance(kafka.bootstrapServers()), run.cpuJson());
            } finally {
                for (QueryInstanceProcess p : processes) {
                    p.close();
                }
            }
        }
    }

    private static Map<String, String> instanceConfiguration(ChartstreamConfig config, String bootstrap, EmbeddedPostgresSource pg,
                                                            int partitions, Path dataDir) {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("data.dir", dataDir.toString());
        own.put("kafka.bootstrap", bootstrap);
        own.put("ops.http.port", "0");
        own.put("embedding.model", config.string("embedding.model"));
        own.put("embedding.threads", "1");
        own.put("ingest.batch-chunks", config.string("ingest.batch-chunks"));
        own.put("index.partitions", Integer.toString(partitions));
        own.put("source.kind", "postgres");
        own.put("source.host", "127.0.0.1");
        own.put("source.port", Integer.toString(pg.port()));
        own.put("source.database", EmbeddedPostgresSource.DATABASE);
        own.put("source.user", EmbeddedPostgresSource.SUPERUSER);
        return own;
    }

    /** Waits until the ingest group has {@code members} members (the embedding-only instances have joined). */
    private static void awaitGroupMembers(String bootstrap, int members, List<QueryInstanceProcess> processes, BrokerProcess broker)
            throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        try (Admin admin = Admin.create(p)) {
            while (true) {
                if (groupMembers(admin) >= members) {
                    return;
                }
                requireAlive(processes, broker);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the embedding-only ingest instances did not join the group within 3 minutes");
                }
                Thread.sleep(250);
            }
        }
    }

    /** Members of the ingest group; 0 while the group does not exist yet. */
    private static int groupMembers(Admin admin) throws InterruptedException {
        try {
            return admin.describeConsumerGroups(List.of(PipelineRuntime.INGEST_APPLICATION_ID)).all().get()
                    .get(PipelineRuntime.INGEST_APPLICATION_ID).members().size();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return 0;
            }
            throw new IllegalStateException("cannot describe the ingest group: " + e.getCause(), e.getCause());
        }
    }

    private static void requireAlive(List<QueryInstanceProcess> processes, BrokerProcess broker) {
        for (QueryInstanceProcess p : processes) {
            if (!p.isAlive()) {
                throw new IllegalStateException(p.name() + " stopped (see its log)");
            }
        }
        if (!broker.isAlive()) {
            throw new IllegalStateException("the bench's broker stopped (see broker.log)");
        }
    }

    private static KafkaConsumer<String, IndexEvent> indexConsumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, IndexEvent> consumer = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(IndexEvent.class));
        List<TopicPartition> tps = consumer.partitionsFor(Topics.INDEX, Duration.ofSeconds(30)).stream()
                .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        return consumer;
    }

    /** Reads the index log until every table's marker is on every partition. */
    private static Run follow(KafkaConsumer<String, IndexEvent> index, List<String> tables, String sourceId, int instances,
                              int partitions, List<QueryInstanceProcess> processes, BrokerProcess broker, Path postgresDataDir)
            throws NoSuchAlgorithmException {
        Map<String, Integer> markers = new TreeMap<>();
        Map<String, List<ChunkRecord>> rows = new TreeMap<>();
        long chunks = 0;
        long first = 0;
        Map<String, Optional<ProcessCpu>> cpuAtFirst = Map.of();
        long deadline = System.nanoTime() + Duration.ofMinutes(60).toNanos();
        while (tables.stream().anyMatch(t -> markers.getOrDefault(t, 0) < partitions)) {
            requireAlive(processes, broker);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the snapshot was not published within 60 minutes: markers " + markers);
            }
            for (ConsumerRecord<String, IndexEvent> r : index.poll(Duration.ofMillis(100))) {
                IndexEvent e = r.value();
                if (e.getKind() == IndexEventKind.MARKER) {
                    markers.merge(e.getTableName(), 1, Integer::sum);
                } else if (e.getKind() == IndexEventKind.UPSERT_ROW) {
                    if (first == 0) {
                        first = System.nanoTime();
                        cpuAtFirst = cpuNow(processes, broker, postgresDataDir);
                    }
                    chunks += e.getChunks().size();
                    rows.put(RowRef.id(e.getSourceId(), e.getTableName(), e.getRowKey()), e.getChunks());
                }
            }
        }
        double seconds = (System.nanoTime() - first) / 1e9;
        Map<String, String> cpu = new TreeMap<>();
        for (Map.Entry<String, Optional<ProcessCpu>> end : cpuNow(processes, broker, postgresDataDir).entrySet()) {
            cpu.put(end.getKey(), ProcessCpu.jsonBetween(cpuAtFirst.getOrDefault(end.getKey(), Optional.empty()), end.getValue()));
        }
        Map<String, Long> perTable = new TreeMap<>();
        tables.forEach(t -> perTable.put(new TableRef(sourceId, t).id(), 0L));
        Map<String, String> hashes = new TreeMap<>();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (Map.Entry<String, List<ChunkRecord>> row : rows.entrySet()) {
            String key = row.getKey();
            perTable.merge(key.substring(0, key.indexOf(':', key.indexOf(':') + 1)), 1L, Long::sum);
            String texts = row.getValue().stream().map(ChunkRecord::getText).collect(Collectors.joining("\u0000"));
            hashes.put(key, HexFormat.of().formatHex(sha.digest(texts.getBytes(StandardCharsets.UTF_8))));
        }
        return new Run(instances, chunks, seconds, perTable, hashes, Map.of(), cpu);
    }

    /** Each instance's CPU so far, the broker's, PostgreSQL's, and this JVM's (the bench's own reader) as {@code "bench"}. */
    private static Map<String, Optional<ProcessCpu>> cpuNow(List<QueryInstanceProcess> processes, BrokerProcess broker,
                                                            Path postgresDataDir) {
        Map<String, Optional<ProcessCpu>> out = new TreeMap<>();
        for (QueryInstanceProcess p : processes) {
            out.put(p.name(), ProcessCpu.read(p.pid()));
        }
        out.put("broker", ProcessCpu.read(broker.pid()));
        out.put("postgres", ProcessCpu.processTree("postgres", postgresDataDir.toString()));
        out.put("bench", ProcessCpu.self());
        return out;
    }
}
