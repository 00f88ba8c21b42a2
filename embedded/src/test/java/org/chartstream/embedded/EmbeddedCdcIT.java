package org.chartstream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.EmbeddedDebeziumRunner;
import org.chartstream.connectors.SourceConnection;
import org.junit.jupiter.api.Test;

/**
 * End to end on real components: in-process KRaft broker, embedded PostgreSQL (logical WAL), Debezium embedded
 * (pgoutput) through {@link EmbeddedDebeziumRunner} into Kafka; snapshot, streaming c/u/d + tombstone, and a restart
 * on the same offsets that resumes without a new snapshot.
 */
class EmbeddedCdcIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "cdcit";
    private static final String PATIENTS_TOPIC = PREFIX + ".public.patients";
    private static final String ENCOUNTERS_TOPIC = PREFIX + ".public.encounters";
    private static final String NOTIFICATIONS_TOPIC = DebeziumConfigs.notificationTopic(PREFIX);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Map<String, Long> timings = new LinkedHashMap<>();
    private long stepStart = System.nanoTime();

    private void step(String name) {
        long now = System.nanoTime();
        timings.put(name, (now - stepStart) / 1_000_000);
        System.out.printf("[EmbeddedCdcIT] %-44s %6d ms%n", name, timings.get(name));
        stepStart = now;
    }

    @Test
    void snapshotThenStreamingThenRestartWithoutResnapshot() throws Exception {
        long t0 = System.nanoTime();
        Path work = Path.of("target", "it", "EmbeddedCdcIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        UUID[] ids = {UUID.fromString("00000000-0000-0000-0000-000000000001"),
                UUID.fromString("00000000-0000-0000-0000-000000000002"),
                UUID.fromString("00000000-0000-0000-0000-000000000003")};
        UUID streamed = UUID.fromString("00000000-0000-0000-0000-000000000004");
        UUID afterRestart = UUID.fromString("00000000-0000-0000-0000-000000000005");

        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"))) {
            step("kafka broker start");
            try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(work.resolve("pg"))) {
                step("postgres start (" + pg.processOwner() + ")");
                try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                    s.execute("create table patients(patient_id uuid primary key, patient_no text, first_name text)");
                    s.execute("alter table patients replica identity full");
                    // a child table whose name sorts before "patients": the snapshot must still follow the
                    // configured order (patients first)
                    s.execute("create table encounters(encounter_id uuid primary key, patient_id uuid references "
                            + "patients, encounter_date date, recorded_at timestamp, cost numeric(10,2))");
                    s.execute("alter table encounters replica identity full");
                    s.execute("insert into patients values ('" + ids[0] + "','P-001','Ada'),('" + ids[1]
                            + "','P-002','Ben'),('" + ids[2] + "','P-003','Cleo')");
                    s.execute("insert into encounters values "
                            + "('10000000-0000-0000-0000-000000000001','" + ids[0] + "','2024-05-06',"
                            + "'2024-05-06 10:11:12.345','123.45'),"
                            + "('10000000-0000-0000-0000-000000000002','" + ids[1] + "','2024-06-07',"
                            + "'2024-06-07 08:00:00','0.50')");
                }
                kafka.createTopics(Map.of(PATIENTS_TOPIC, 1, ENCOUNTERS_TOPIC, 1, NOTIFICATIONS_TOPIC, 1));
                kafka.createTopics(Map.of(PATIENTS_TOPIC, 1, ENCOUNTERS_TOPIC, 1)); // idempotent
                step("schema, 3 patients + 2 encounters, topics");

                SourceConnection src = pg.sourceConnection("ehr", List.of("patients", "encounters"));
                assertThat(DebeziumConfigs.topicsFor(src, PREFIX)).containsExactly(PATIENTS_TOPIC, ENCOUNTERS_TOPIC);
                Path offsets = work.resolve("offsets");
                Properties engineProps = DebeziumConfigs.forSource(src, PREFIX, offsets, kafka.bootstrapServers());

                try (KafkaConsumer<String, String> consumer = consumer(kafka.bootstrapServers())) {
                    List<ConsumerRecord<String, String>> seen = new ArrayList<>();

                    // 1. snapshot
                    EmbeddedDebeziumRunner runner = new EmbeddedDebeziumRunner(engineProps);
                    try {
                        runner.start();
                        pollUntil(consumer, seen, all -> count(all, PATIENTS_TOPIC) >= 3
                                && count(all, ENCOUNTERS_TOPIC) >= 2 && all.stream().anyMatch(r -> r.topic().equals(NOTIFICATIONS_TOPIC) && r.value().contains("\"COMPLETED\"")), runner);
                        // the snapshot reports each table's scan with its row count (the ingest side relies on it)
                        assertThat(values(seen, NOTIFICATIONS_TOPIC).stream()
                                .filter(n -> n.path("type").asText().equals("TABLE_SCAN_COMPLETED"))
                                .map(n -> n.path("additional_data").path("scanned_collection").asText() + "="
                                        + n.path("additional_data").path("total_rows_scanned").asText()))
                                .containsExactly("public.patients=3", "public.encounters=2");
                        step("debezium start + snapshot in kafka");

                        List<JsonNode> patients = values(seen, PATIENTS_TOPIC);
                        assertThat(patients).hasSize(3);
                        assertThat(patients).allSatisfy(v -> assertThat(v.path("op").asText()).isEqualTo("r"));
                        assertThat(patients.stream().map(v -> v.path("after").path("patient_no").asText()))
                                .containsExactly("P-001", "P-002", "P-003");
                        assertThat(patients.stream().map(v -> v.path("source").path("snapshot").asText()))
                                .containsExactly("first", "true", "last_in_data_collection");
                        assertThat(patients.get(0).path("source").path("table").asText()).isEqualTo("patients");
                        assertThat(patients.get(0).path("source").path("lsn").isNumber()).isTrue();
                        assertThat(JSON.readTree(keyOf(seen, PATIENTS_TOPIC, 0)).path("patient_id").asText())
                                .isEqualTo(ids[0].toString());

                        List<JsonNode> encounters = values(seen, ENCOUNTERS_TOPIC);
                        assertThat(encounters.stream().map(v -> v.path("source").path("snapshot").asText()))
                                .containsExactly("first_in_data_collection", "last");
                        JsonNode e1 = encounters.get(0).path("after");
                        assertThat(e1.path("cost").isTextual()).as("decimal as string: %s", e1).isTrue();
                        assertThat(e1.path("cost").asText()).isEqualTo("123.45");
                        assertThat(e1.path("encounter_date").isTextual()).as("date as ISO string: %s", e1).isTrue();
                        assertThat(e1.path("encounter_date").asText()).startsWith("2024-05-06");
                        assertThat(e1.path("recorded_at").asText()).startsWith("2024-05-06T10:11:12.345");
                        System.out.println("[EmbeddedCdcIT] temporal/decimal shapes: encounter_date="
                                + e1.path("encounter_date") + " recorded_at=" + e1.path("recorded_at")
                                + " cost=" + e1.path("cost"));

                        // 2. streaming: insert, update, delete (+ tombstone)
                        int before = seen.size();
                        try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                            s.execute("insert into patients values ('" + streamed + "','P-004','Dan')");
                            s.execute("update patients set first_name = 'Daniel' where patient_id = '" + streamed + "'");
                            s.execute("delete from patients where patient_id = '" + streamed + "'");
                        }
                        pollUntil(consumer, seen, all -> forKey(all.subList(before, all.size()), streamed).size() >= 4,
                                runner);
                        step("streaming insert/update/delete in kafka");

                        List<ConsumerRecord<String, String>> changes = forKey(seen.subList(before, seen.size()), streamed);
                        assertThat(changes).hasSize(4);
                        JsonNode cEv = JSON.readTree(changes.get(0).value());
                        JsonNode uEv = JSON.readTree(changes.get(1).value());
                        JsonNode dEv = JSON.readTree(changes.get(2).value());
                        assertThat(cEv.path("op").asText()).isEqualTo("c");
                        assertThat(cEv.path("source").path("snapshot").asText()).isEqualTo("false");
                        assertThat(uEv.path("op").asText()).isEqualTo("u");
                        assertThat(uEv.path("before").path("first_name").asText()).isEqualTo("Dan");
                        assertThat(uEv.path("after").path("first_name").asText()).isEqualTo("Daniel");
                        assertThat(dEv.path("op").asText()).isEqualTo("d");
                        assertThat(dEv.path("before").path("patient_no").asText()).isEqualTo("P-004");
                        assertThat(dEv.path("after").isNull()).isTrue();
                        assertThat(changes.get(3).value()).as("tombstone").isNull();
                        assertThat(changes.get(3).key()).isEqualTo(changes.get(2).key());

                        assertThat(runner.isHealthy()).isTrue();
                        // the counters move after Kafka's acknowledgement, which a consumer may observe first: closing
                        // the runner before they have moved would stop the batch's bookkeeping half-way
                        long counted = System.nanoTime() + WAIT.toNanos();
                        while (runner.recordsProduced() < 3 + 2 + 4 && System.nanoTime() < counted) {
                            Thread.sleep(20);
                        }
                    } finally {
                        runner.close();
                    }
                    assertThat(runner.recordsProduced()).isGreaterThanOrEqualTo(3 + 2 + 4);
                    assertThat(runner.tombstonesProduced()).isEqualTo(1);
                    assertThat(runner.batchesCommitted()).isPositive();
                    assertThat(runner.state()).isEqualTo(EmbeddedDebeziumRunner.State.STOPPED);
                    assertThat(runner.failure()).isEmpty();
                    assertThat(DebeziumConfigs.offsetsFile(offsets, "ehr")).isNotEmptyFile();
                    step("debezium close (offsets flushed)");

                    // 3. restart on the same offsets: no new snapshot, new changes arrive
                    int beforeRestart = seen.size();
                    EmbeddedDebeziumRunner again = new EmbeddedDebeziumRunner(engineProps);
                    try {
                        again.start();
                        assertThat(again.awaitTaskStarted(WAIT)).isTrue();
                        try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                            s.execute("insert into patients values ('" + afterRestart + "','P-005','Eve')");
                        }
                        pollUntil(consumer, seen, all -> !forKey(all.subList(beforeRestart, all.size()),
                                afterRestart).isEmpty(), again);
                        step("debezium restart + streamed insert in kafka");

                        List<ConsumerRecord<String, String>> sinceRestart = seen.subList(beforeRestart, seen.size());
                        List<String> opsSinceRestart = new ArrayList<>();
                        for (ConsumerRecord<String, String> r : sinceRestart) {
                            opsSinceRestart.add(r.value() == null ? "tombstone" : JSON.readTree(r.value()).path("op").asText());
                        }
                        assertThat(opsSinceRestart).as("no re-snapshot after restart").doesNotContain("r").contains("c");
                        JsonNode ev = JSON.readTree(forKey(sinceRestart, afterRestart).get(0).value());
                        assertThat(ev.path("op").asText()).isEqualTo("c");
                        assertThat(ev.path("after").path("patient_no").asText()).isEqualTo("P-005");
                        // a consumer can see the record before the runner has counted Kafka's acknowledgement
                        long counted = System.nanoTime() + WAIT.toNanos();
                        while (again.recordsProduced() < 1 && System.nanoTime() < counted) {
                            Thread.sleep(20);
                        }
                    } finally {
                        again.close();
                    }
                    assertThat(again.failure()).isEmpty();
                    assertThat(again.recordsProduced()).isGreaterThanOrEqualTo(1);
                    step("debezium close");
                }
            }
            step("postgres stop");
        }
        step("kafka stop");
        long total = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("[EmbeddedCdcIT] %-44s %6d ms%n", "TOTAL", total);
        System.out.println("[EmbeddedCdcIT] timings " + timings);
    }

    /**
     * At least once across a Kafka outage: while the broker is down the runner cannot get acknowledgements, so it
     * fails without committing; a new runner on the same offsets (broker back on the same data directory) delivers
     * the change made during the outage.
     */
    @Test
    void kafkaOutageFailsTheRunnerWithoutLosingTheChange() throws Exception {
        long t0 = System.nanoTime();
        Path work = Path.of("target", "it", "EmbeddedCdcIT-outage-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        UUID duringOutage = UUID.fromString("00000000-0000-0000-0000-0000000000aa");
        Map<String, Object> impatient = Map.of("max.block.ms", "3000", "request.timeout.ms", "1000",
                "delivery.timeout.ms", "3000", "linger.ms", "0");
        try (EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(work.resolve("pg"))) {
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                s.execute("create table patients(patient_id uuid primary key, patient_no text, first_name text)");
                s.execute("alter table patients replica identity full");
                s.execute("insert into patients values ('" + UUID.randomUUID() + "','P-100','Gus')");
            }
            SourceConnection src = pg.sourceConnection("outage", List.of("patients"));
            Path offsets = work.resolve("offsets");
            Path kafkaDir = work.resolve("kafka");

            EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(kafkaDir);
            EmbeddedDebeziumRunner runner = new EmbeddedDebeziumRunner(
                    DebeziumConfigs.forSource(src, PREFIX, offsets, kafka.bootstrapServers()), impatient);
            try {
                runner.start();
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (runner.recordsProduced() < 1 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(runner.recordsProduced()).isEqualTo(1); // the snapshot row is in Kafka
                step("outage: snapshot delivered");

                kafka.close(); // Kafka goes away
                try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                    s.execute("insert into patients values ('" + duringOutage + "','P-101','Hal')");
                }
                assertThat(runner.awaitFinished(Duration.ofSeconds(30))).as("runner gave up").isTrue();
                assertThat(runner.state()).isEqualTo(EmbeddedDebeziumRunner.State.FAILED);
                assertThat(runner.failure()).isPresent();
                assertThat(runner.recordsProduced()).isEqualTo(1);
                step("outage: runner failed, nothing committed");
            } finally {
                runner.close();
                kafka.close();
            }

            try (EmbeddedKafkaBroker back = new EmbeddedKafkaBroker().start(kafkaDir)) {
                EmbeddedDebeziumRunner again = new EmbeddedDebeziumRunner(
                        DebeziumConfigs.forSource(src, PREFIX, offsets, back.bootstrapServers()));
                try (KafkaConsumer<String, String> consumer = consumer(back.bootstrapServers(), PATIENTS_TOPIC)) {
                    again.start();
                    List<ConsumerRecord<String, String>> seen = new ArrayList<>();
                    pollUntil(consumer, seen, all -> !forKey(all, duringOutage).isEmpty(), again);
                    step("outage: change re-delivered after restart");
                    List<String> ops = new ArrayList<>();
                    for (ConsumerRecord<String, String> r : seen) {
                        ops.add(JSON.readTree(r.value()).path("op").asText());
                    }
                    assertThat(ops).as("snapshot row once, no re-snapshot, then the outage insert")
                            .containsExactly("r", "c");
                } finally {
                    again.close();
                }
                assertThat(again.failure()).isEmpty();
            }
        }
        System.out.printf("[EmbeddedCdcIT] %-44s %6d ms%n", "TOTAL (outage)", (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * A kill -9 may come at any moment after a batch was acknowledged: the offsets on disk must then already cover
     * it, above all the snapshot's last batch, or the next start snapshots the tables again (and the ingest side
     * builds a second generation of each). Here the snapshot spans hundreds of engine batches
     * ({@code max.batch.size=1}) and the source stays idle afterwards, so no later batch writes the offsets either.
     * The offsets file is copied while the runner still runs (what a kill leaves on disk) and a new runner starts on
     * that copy.
     */
    @Test
    void aKillAfterTheSnapshotResumesWithoutSnapshottingAgain() throws Exception {
        Path work = Path.of("target", "it", "EmbeddedCdcIT-kill-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"));
             EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(work.resolve("pg"))) {
            createPatients(pg, 400);
            KilledCapture capture = new KilledCapture(kafka, pg, work, "killed");
            capture.killWhen((runner, seen) -> count(seen, PATIENTS_TOPIC) >= 400 && seen.stream()
                    .anyMatch(r -> r.topic().equals(NOTIFICATIONS_TOPIC) && r.value().contains("\"COMPLETED\"")), () -> { });
            step("kill after the snapshot: offsets copied while the runner ran");
            assertThat(capture.restartedOps(pg)).as("no new snapshot after the kill, only the insert").containsExactly("c");
            step("kill after the snapshot: restart streamed the insert without a new snapshot");
        }
    }

    /**
     * A kill -9 right after the snapshot's start notice was acknowledged, while the table is still being read (held
     * here by a lock): the restart must snapshot, not stream on as if the snapshot were done.
     */
    @Test
    void aKillAtTheStartOfTheSnapshotSnapshotsAgain() throws Exception {
        Path work = Path.of("target", "it", "EmbeddedCdcIT-kill-start-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        try (EmbeddedKafkaBroker kafka = new EmbeddedKafkaBroker().start(work.resolve("kafka"));
             EmbeddedPostgresSource pg = EmbeddedPostgresSource.start(work.resolve("pg"))) {
            createPatients(pg, 3);
            KilledCapture capture = new KilledCapture(kafka, pg, work, "killedstart");
            try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                // slot and publication first: creating them waits for, or locks against, the transaction below
                s.execute("select pg_create_logical_replication_slot('" + DebeziumConfigs.slotName("killedstart") + "', 'pgoutput')");
                s.execute("create publication " + DebeziumConfigs.publicationName("killedstart") + " for table public.patients");
                c.setAutoCommit(false);
                s.execute("lock table patients in access exclusive mode");
                capture.killWhen((runner, seen) -> runner.notificationsProduced() >= 1 && seen.stream()
                        .anyMatch(r -> r.topic().equals(NOTIFICATIONS_TOPIC) && r.value().contains("\"STARTED\"")), c::rollback);
            }
            step("kill at the snapshot's start: offsets copied while the table was locked");
            // the insert may land before the snapshot reads the table (a fourth "r") or after it ("c")
            assertThat(capture.restartedOps(pg)).as("the restart snapshots the table").filteredOn("r"::equals).hasSizeGreaterThanOrEqualTo(3);
            step("kill at the snapshot's start: restart snapshotted");
        }
    }

    private static void createPatients(EmbeddedPostgresSource pg, int rows) throws java.sql.SQLException {
        try (Connection c = pg.connection(); Statement s = c.createStatement()) {
            s.execute("create table patients(patient_id uuid primary key, patient_no text, first_name text)");
            s.execute("alter table patients replica identity full");
            s.execute("insert into patients select gen_random_uuid(), 'P-' || n, 'Name' || n from generate_series(1, " + rows + ") n");
        }
    }

    /**
     * One source captured until a condition holds, with its offsets file then copied (what a kill -9 leaves on disk),
     * and captured again from that copy.
     */
    private static final class KilledCapture {
        private static final UUID AFTER_KILL = UUID.fromString("00000000-0000-0000-0000-0000000000bb");
        private final EmbeddedKafkaBroker kafka;
        private final Properties engineProps;
        private final Path offsetsFile;
        private final Path atKill;
        private final List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        private KafkaConsumer<String, String> consumer;
        private long restartOffset;

        KilledCapture(EmbeddedKafkaBroker kafka, EmbeddedPostgresSource pg, Path work, String sourceId) throws Exception {
            this.kafka = kafka;
            kafka.createTopics(Map.of(PATIENTS_TOPIC, 1, NOTIFICATIONS_TOPIC, 1));
            SourceConnection src = pg.sourceConnection(sourceId, List.of("patients")).withExtra(Map.of("max.batch.size", "1"));
            Path offsets = work.resolve("offsets");
            this.offsetsFile = DebeziumConfigs.offsetsFile(offsets, sourceId);
            this.atKill = work.resolve("offsets-at-kill.dat");
            this.engineProps = DebeziumConfigs.forSource(src, PREFIX, offsets, kafka.bootstrapServers());
        }

        /**
         * Runs a runner until {@code killed} holds and every batch it acknowledged is counted, copies the offsets,
         * runs {@code release} and stops the runner; what it writes after the copy is not counted as the restart's.
         */
        void killWhen(java.util.function.BiPredicate<EmbeddedDebeziumRunner, List<ConsumerRecord<String, String>>> killed,
                      AutoCloseable release) throws Exception {
            consumer = consumer(kafka.bootstrapServers(), PATIENTS_TOPIC, NOTIFICATIONS_TOPIC);
            EmbeddedDebeziumRunner runner = new EmbeddedDebeziumRunner(engineProps);
            try {
                runner.start();
                pollUntil(consumer, seen, all -> killed.test(runner, all), runner);
                // the runner counts a batch once the engine has finished it (its offsets written)
                long counted = System.nanoTime() + WAIT.toNanos();
                while ((runner.recordsProduced() < count(seen, PATIENTS_TOPIC) || runner.notificationsProduced() < count(seen, NOTIFICATIONS_TOPIC))
                        && System.nanoTime() < counted) {
                    Thread.sleep(20);
                }
                if (Files.exists(offsetsFile)) {
                    Files.copy(offsetsFile, atKill);
                }
            } finally {
                release.close();
                runner.close();
            }
            if (Files.exists(atKill)) {
                Files.copy(atKill, offsetsFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(offsetsFile); // nothing was written before the kill
            }
            TopicPartition patients = new TopicPartition(PATIENTS_TOPIC, 0);
            restartOffset = consumer.endOffsets(List.of(patients)).get(patients);
        }

        /** The ops of the table's records a new runner on the copied offsets writes, up to an insert made after it started. */
        List<String> restartedOps(EmbeddedPostgresSource pg) throws Exception {
            EmbeddedDebeziumRunner again = new EmbeddedDebeziumRunner(engineProps);
            try {
                again.start();
                assertThat(again.awaitTaskStarted(WAIT)).isTrue();
                try (Connection c = pg.connection(); Statement s = c.createStatement()) {
                    s.execute("insert into patients values ('" + AFTER_KILL + "','P-999','Lea')");
                }
                pollUntil(consumer, seen, all -> !forKey(sinceRestart(all), AFTER_KILL).isEmpty(), again);
            } finally {
                again.close();
                consumer.close();
            }
            List<String> ops = new ArrayList<>();
            for (ConsumerRecord<String, String> r : sinceRestart(seen)) {
                ops.add(r.value() == null ? "tombstone" : JSON.readTree(r.value()).path("op").asText());
            }
            return ops;
        }

        private List<ConsumerRecord<String, String>> sinceRestart(List<ConsumerRecord<String, String>> records) {
            return records.stream().filter(r -> r.topic().equals(PATIENTS_TOPIC) && r.offset() >= restartOffset).toList();
        }
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        return consumer(bootstrap, PATIENTS_TOPIC, ENCOUNTERS_TOPIC, NOTIFICATIONS_TOPIC);
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap, String... topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p);
        List<TopicPartition> tps = java.util.Arrays.stream(topics).map(t -> new TopicPartition(t, 0)).toList();
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        return consumer;
    }

    private static void pollUntil(KafkaConsumer<String, String> consumer, List<ConsumerRecord<String, String>> seen,
                                  Predicate<List<ConsumerRecord<String, String>>> done, EmbeddedDebeziumRunner runner) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.test(seen)) {
            assertThat(runner.failure()).as("runner failure").isEmpty();
            assertThat(System.nanoTime()).as("timed out; records so far: %s", seen.size()).isLessThan(deadline);
            consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
        }
    }

    private static long count(List<ConsumerRecord<String, String>> records, String topic) {
        return records.stream().filter(r -> r.topic().equals(topic)).count();
    }

    private static List<JsonNode> values(List<ConsumerRecord<String, String>> records, String topic) {
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : records) {
            if (r.topic().equals(topic)) {
                try {
                    out.add(JSON.readTree(r.value()));
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    private static String keyOf(List<ConsumerRecord<String, String>> records, String topic, int index) {
        return records.stream().filter(r -> r.topic().equals(topic)).skip(index).findFirst().orElseThrow().key();
    }

    private static List<ConsumerRecord<String, String>> forKey(List<ConsumerRecord<String, String>> records, UUID id) {
        return records.stream().filter(r -> r.key() != null && r.key().contains(id.toString())).toList();
    }
}
