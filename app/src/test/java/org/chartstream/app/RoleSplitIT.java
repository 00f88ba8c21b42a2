package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.chartstream.app.ops.Operations;
import org.chartstream.app.ops.Readiness;
import org.chartstream.client.QueryClient;
import org.chartstream.core.store.TableRef;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The two topologies as separate processes' worth of runtime on one shared broker, as the docker-compose services
 * run them: an INGEST runtime (source database, Debezium, ingest topology; no store, no query topology) and a QUERY
 * runtime (materializer, store, query topology; no source database, no Debezium). A row inserted at the source is
 * answered by the query side. Then `chartstream seed` loads the synthetic dataset into another PostgreSQL database
 * as into the compose PostgreSQL, and a second seed inserts nothing.
 */
class RoleSplitIT {
    private static final String REPLY_TOPIC = "chartstream.replies.roles-it";
    private static final String PATIENT_ID = "7d2e2e7b-0c3a-4c5e-9f20-8b3c4d5e6f70";

    @TempDir
    static Path dir;
    private static EmbeddedKafkaBroker broker;
    private static PipelineRuntime ingest;
    private static PipelineRuntime query;

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        broker = new EmbeddedKafkaBroker().start(dir.resolve("kafka"));
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("kafka.bootstrap", broker.bootstrapServers());
        ingest = PipelineRuntime.start(config, dir.resolve("ingest"), c -> {
            ClinicalDatasetLoader.createSchema(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state)"
                        + " values ('" + PATIENT_ID + "', 'MRN-900201', 'Cy', 'Marlow', '1970-09-09', 'male', 'Quincy', 'Massachusetts')");
            }
            return Map.of("patients", 1);
        }, line -> System.out.println("[roles-it ingest] " + line), PipelineRuntime.Role.INGEST);
        query = PipelineRuntime.start(config, dir.resolve("query"), c -> {
            throw new AssertionError("a query runtime never loads a source database");
        }, line -> System.out.println("[roles-it query] " + line), PipelineRuntime.Role.QUERY);
        query.createTopics(Map.of(REPLY_TOPIC, 1));
        query.awaitStoreReady(Duration.ofMinutes(3));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {query, ingest, broker}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void eachRoleRunsOnlyItsPartAndTheQuerySideAnswersFromWhatTheIngestSideIndexed() throws Exception {
        assertThat(ingest.store()).as("an ingest runtime holds no store").isNull();
        assertThat(ingest.queryStreams()).isNull();
        assertThat(ingest.postgres()).isNotNull();
        assertThat(query.postgres()).as("a query runtime starts no source database").isNull();
        assertThat(query.ingestStreams()).isNull();
        assertThat(Files.exists(dir.resolve("query").resolve("debezium"))).as("no Debezium offsets on the query side").isFalse();

        try (Connection c = ingest.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                    + " values (900201, '" + PATIENT_ID + "', '2024-03-01', '197361', 'Amlodipine 5 MG Oral Tablet', 'Essential hypertension')");
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (query.store().countRows(new TableRef("ehr", "medications")) != 1) {
            assertThat(System.nanoTime()).as("the insert reaches the query side's store within 60 s").isLessThan(deadline);
            Thread.sleep(50);
        }
        try (QueryClient client = new QueryClient(query.bootstrapServers(), REPLY_TOPIC)) {
            QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setConversationId("roles")
                    .setUserId("it").setQuestion("Which patient takes amlodipine for hypertension?").setTopK(3).build();
            List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
            ReplyEvent last = events.get(events.size() - 1);
            assertThat(last.getType()).isEqualTo(ReplyType.ANSWER);
            assertThat(last.getCitations()).extracting(Citation::getRowKey).contains("900201");
        }
    }

    @Test
    void eachRoleReportsItsOwnReadinessAndMetrics() throws Exception {
        ChartstreamConfig noEndpoint = ChartstreamConfig.defaults().with("ops.http.port", "0");
        try (Operations ingestOps = Operations.start(noEndpoint, line -> { });
             Operations queryOps = Operations.start(noEndpoint, line -> { })) {
            ingestOps.attach(ingest);
            queryOps.attach(query);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!ingestOps.readiness().ready() || !queryOps.readiness().ready()) {
                assertThat(System.nanoTime()).as("both roles ready within 60 s; ingest says %s, query says %s",
                        ingestOps.readiness().json(), queryOps.readiness().json()).isLessThan(deadline);
                Thread.sleep(100);
            }
            // the ingest side checks what it runs; the query side's indexes include the tables the snapshot found empty
            assertThat(ingestOps.readiness().checks()).extracting(Readiness.Check::name).containsExactly("models", "pipeline", "capture");
            assertThat(queryOps.readiness().checks()).extracting(Readiness.Check::name)
                    .containsExactly("store", "indexes", "models", "pipeline", "admission");
            assertThat(query.store().activeGenerations()).containsKeys(new TableRef("ehr", "clinical_notes"), new TableRef("ehr", "conditions"));

            String ingestMetrics = ingestOps.scrape();
            assertThat(ingestMetrics).contains("chartstream_generation_staged{", "topology=\"ingest\"")
                    .doesNotContain("chartstream_admission_limit", "topology=\"query\"", "chartstream_generation_active{");
            String queryMetrics = queryOps.scrape();
            assertThat(queryMetrics).contains("chartstream_admission_limit", "chartstream_generation_active{", "topology=\"query\"",
                    "topology=\"index-materializer\"").doesNotContain("topology=\"ingest\"");
        }
    }

    @Test
    void seedLoadsTheSyntheticDatasetIntoAConfiguredPostgresOnce() throws Exception {
        try (Connection c = ingest.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate("create database seeded");
        }
        Path config = Files.writeString(dir.resolve("seed.properties"), String.join("\n",
                "data.dir=" + dir.resolve("seed-data"), "dataset.patients=3", "source.host=127.0.0.1",
                "source.port=" + ingest.postgres().port(), "source.database=seeded", "source.user=postgres", ""));
        assertThat(seed(config)).contains("rows inserted per table: {patients=3");
        try (Connection c = java.sql.DriverManager.getConnection(ingest.postgres().jdbcUrl("seeded"), "postgres", null);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from patients")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
        }
        assertThat(seed(config)).as("seeding twice inserts nothing").contains("{patients=0, encounters=0, conditions=0, medications=0, clinical_notes=0}");
    }

    private static String seed(Path config) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new Main()).execute("seed", "--config", config.toString());
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        original.println("[roles-it] seed -> exit " + code + ": " + out);
        assertThat(code).isZero();
        return out;
    }
}
