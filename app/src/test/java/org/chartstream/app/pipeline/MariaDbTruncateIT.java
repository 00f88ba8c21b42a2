package org.chartstream.app.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.chartstream.app.ops.Operations;
import org.chartstream.core.store.TableRef;
import org.chartstream.embedded.MariaDbServer;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code TRUNCATE TABLE} on Debian's MariaDB (ROW binlog) under the running pipeline. The binlog holds a truncate as
 * a DDL statement; Debezium 3.5's binlog connector parses it and, with {@code skipped.operations=none}, writes an
 * {@code op=t} event to the table's data topic. The table's rows leave the index at once, and rows inserted later
 * are indexed and cited.
 */
class MariaDbTruncateIT {
    private static final String PATIENT_ID = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";

    @TempDir
    Path dir;

    @Test
    void aTruncateTableEmptiesTheTablesIndexAndTheTableKeepsBeingCaptured() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        try (MariaDbServer server = MariaDbServer.start("clinic")) {
            server.execute(
                    "create table patients (patient_id varchar(36) primary key, patient_no varchar(20), first_name varchar(40),"
                            + " last_name varchar(40), city varchar(40))",
                    "create table clinical_notes (note_id bigint primary key, patient_id varchar(36), chief_complaint varchar(80), note_text text)",
                    "insert into patients values ('" + PATIENT_ID + "', 'MRN-830001', 'Hedda', 'Strom', 'Bangor')",
                    "insert into clinical_notes values (1, '" + PATIENT_ID + "', 'follow-up', 'Gout flare in the left big toe.'),"
                            + " (2, '" + PATIENT_ID + "', 'cough', 'Dry cough for three weeks, no fever.')");
            ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                    .with("source.kind", "mariadb").with("source.host", "127.0.0.1").with("source.port", Integer.toString(server.port()))
                    .with("source.database", server.database()).with("source.user", MariaDbServer.USER)
                    .with("source.password", MariaDbServer.PASSWORD).with("source.tables", "patients,clinical_notes")
                    .with("ops.http.port", Integer.toString(ServingProbe.freePort()));
            try (Operations ops = Operations.start(config, line -> System.out.println("[mariadb-truncate] " + line));
                 PipelineRuntime runtime = PipelineRuntime.start(config, dir.resolve("run"), c -> Map.of(),
                         line -> System.out.println("[mariadb-truncate] " + line))) {
                ops.attach(runtime);
                runtime.awaitSearchable(Duration.ofMinutes(3));
                ServingProbe probe = new ServingProbe(runtime, "chartstream.replies.mariadb-truncate");
                TableRef notes = new TableRef("ehr", "clinical_notes");
                long before = runtime.store().activeGenerations().get(notes);

                server.execute("truncate table clinical_notes");
                ServingProbe.await("the truncated table's rows leave the index",
                        () -> runtime.indexedRowCounts().get("clinical_notes") == 0);
                assertThat(runtime.store().activeGenerations().get(notes)).isGreaterThan(before);
                assertThat(changeEvents(runtime.bootstrapServers(), "ehr.clinic.clinical_notes"))
                        .as("what Debezium wrote for the truncate").anySatisfy(v -> assertThat(v).contains("\"op\":\"t\"", "\"after\":null"));
                assertThat(runtime.indexedRowCounts().get("patients")).isEqualTo(1);

                server.execute("insert into clinical_notes values (3, '" + PATIENT_ID + "', 'rash', 'Itchy rash on both forearms after gardening.')");
                ServingProbe.await("a note inserted after the truncate is indexed", () -> runtime.indexedRowCounts().get("clinical_notes") == 1);
                probe.answersCiting("Which patient has an itchy rash on the forearms?", "clinical_notes", "3");
                assertThat(runtime.captureProblem()).isNull();
                assertThat(ServingProbe.ready(ops.port())).isEqualTo(200);
                assertThat(runtime.indexedRowCounts()).isEqualTo(runtime.sourceRowCounts());
            }
        }
    }

    /** Every value on a change topic so far. */
    private static java.util.List<String> changeEvents(String bootstrap, String topic) {
        java.util.Properties p = new java.util.Properties();
        p.put(org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        java.util.List<String> values = new java.util.ArrayList<>();
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, String>(p,
                new org.apache.kafka.common.serialization.StringDeserializer(), new org.apache.kafka.common.serialization.StringDeserializer())) {
            var tp = new org.apache.kafka.common.TopicPartition(topic, 0);
            consumer.assign(java.util.List.of(tp));
            consumer.seekToBeginning(java.util.List.of(tp));
            long end = consumer.endOffsets(java.util.List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(String.valueOf(r.value())));
            }
        }
        return values;
    }
}
