package org.chartstream.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.chartstream.client.QueryClient;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations endpoint on the real embedded runtime (KRaft broker, PostgreSQL, Debezium, both topologies, ONNX,
 * Lucene): /health answers from the start, /ready is 503 naming its failing checks until every table is searchable
 * and then 200, and after one question /metrics carries the stage latencies, admission, consumer lag and generation
 * state with values that fit what happened; once nothing changes, the ingest threads stop committing.
 */
class OperationsIT {
    private static final String PATIENT_ID = "7c1d2e3f-4a5b-4c6d-8e7f-901234567890";
    private static final String REPLY_TOPIC = "chartstream.replies.ops";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ADMISSION_LIMIT = 1;
    private static final int BURST = 6;
    private static final Duration IDLE_WINDOW = Duration.ofSeconds(5);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void healthReadinessAndMetricsFollowThePipelineFromStartToAnAnsweredQuestion() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString())
                .with("source.tables", "patients,medications").with("ops.http.port", Integer.toString(freePort()))
                .with("query.admission-limit", Integer.toString(ADMISSION_LIMIT));
        try (Operations ops = Operations.start(config, line -> System.out.println("[ops] " + line))) {
            String base = "http://127.0.0.1:" + ops.port();
            assertThat(get(base + "/health").statusCode()).isEqualTo(200);
            HttpResponse<String> starting = get(base + "/ready");
            assertThat(starting.statusCode()).isEqualTo(503);
            assertThat(failing(starting)).contains("store", "indexes", "models");

            try (PipelineRuntime runtime = PipelineRuntime.start(config, dir.resolve("ops"), c -> {
                ClinicalDatasetLoader.createSchema(c);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state)"
                            + " values ('" + PATIENT_ID + "', 'MRN-700001', 'Iris', 'Okafor', '1958-09-14', 'female', 'Lowell', 'Massachusetts')");
                    // one patient: Debezium marks the lone row of the first snapshotted table "first", never
                    // "last_in_data_collection"; its table-scan notice is what publishes that table
                    s.executeUpdate("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                            + " values (700001, '" + PATIENT_ID + "', '2024-03-05', '197361', 'Amlodipine 5 MG Oral Tablet', 'Essential hypertension')");
                }
                return Map.of("patients", 1, "medications", 1);
            }, line -> System.out.println("[ops] " + line))) {
                ops.attach(runtime);
                runtime.createTopics(Map.of(REPLY_TOPIC, 1));

                // Debezium needs more than a second to read its first snapshot row, so nothing can be published yet
                HttpResponse<String> indexing = get(base + "/ready");
                assertThat(indexing.statusCode()).isEqualTo(503);
                assertThat(failing(indexing)).contains("indexes").doesNotContain("store", "models");

                List<Integer> statuses = new ArrayList<>();
                String last = indexing.body();
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (statuses.isEmpty() || statuses.get(statuses.size() - 1) != 200) {
                    assertThat(System.nanoTime()).as("/ready turns 200 within 3 minutes; last said " + last).isLessThan(deadline);
                    HttpResponse<String> ready = get(base + "/ready");
                    statuses.add(ready.statusCode());
                    last = ready.body();
                    Thread.sleep(200);
                }
                // once ready, every table is searchable: the source's rows are all in the active generations
                assertThat(runtime.indexedRowCounts()).isEqualTo(runtime.sourceRowCounts());
                assertThat(statuses.subList(0, statuses.size() - 1)).containsOnly(503);
                System.out.printf("[ops] /ready 503 for %d polls, then 200%n", statuses.size() - 1);

                try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
                    QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                            .setConversationId("ops").setUserId("it").setQuestion("Who takes amlodipine for hypertension?")
                            .setTopK(3).build();
                    List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
                    assertThat(events.get(events.size() - 1).getType()).isEqualTo(ReplyType.ANSWER);
                }

                // the query topology commits its consumed offsets every query.commit-interval-ms (replies do not wait
                // for it): the query group's lag appears once it has committed; the store commits what it has applied
                // up to a second after the replica is searchable, so its lag reaches 0 within that delay
                long commitDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                HttpResponse<String> scrape = get(base + "/metrics");
                while (!committedEverything(new PrometheusText(scrape.body())) && System.nanoTime() < commitDeadline) {
                    Thread.sleep(250);
                    scrape = get(base + "/metrics");
                }
                assertThat(scrape.statusCode()).isEqualTo(200);
                assertThat(scrape.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
                PrometheusText metrics = new PrometheusText(scrape.body());
                assertSaneMetrics(metrics);
                assertThat(get(base + "/ready").statusCode()).isEqualTo(200);
                assertThat(get(base + "/health").statusCode()).isEqualTo(200);

                long busy = burst(runtime);
                System.out.printf("[ops] %d of %d simultaneous questions answered busy (admission limit %d)%n", busy, BURST, ADMISSION_LIMIT);
                PrometheusText after = new PrometheusText(get(base + "/metrics").body());
                assertThat(busy).as("busy replies to %d simultaneous questions with room for %d", BURST, ADMISSION_LIMIT).isPositive();
                assertThat(after.value("chartstream_admission_rejected_total", Map.of())).isEqualTo((double) busy);
                assertThat(after.value("chartstream_admission_in_flight", Map.of())).isEqualTo(0.0);
                assertThat(after.value("chartstream_admission_oldest_in_flight_ms", Map.of())).as("none in flight").isEqualTo(0.0);
                assertThat(after.value("chartstream_query_stage_seconds_count", Map.of("stage", "total"))).isEqualTo(1.0 + BURST - busy);

                // an idle ingest keeps no timer, so it asks for no transaction (before: about 9 a second per thread)
                double idleStart = ingestCommits(new PrometheusText(get(base + "/metrics").body()));
                Thread.sleep(IDLE_WINDOW.toMillis());
                double idleCommits = ingestCommits(new PrometheusText(get(base + "/metrics").body())) - idleStart;
                System.out.printf("[ops] %.0f ingest commits in %d idle seconds%n", idleCommits, IDLE_WINDOW.toSeconds());
                assertThat(idleCommits).as("ingest commits while no change arrives").isLessThanOrEqualTo(2.0);
            }
        }
    }

    private static double ingestCommits(PrometheusText metrics) {
        return metrics.samples("kafka_stream_thread_commit_total", Map.of("topology", "ingest")).values().stream()
                .mapToDouble(Double::doubleValue).sum();
    }

    /** Asks {@link #BURST} questions at once, each from its own client; returns how many were answered busy. */
    private static long burst(PipelineRuntime runtime) throws Exception {
        List<QueryClient> clients = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(BURST);
        try {
            for (int i = 0; i < BURST; i++) {
                clients.add(new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC));
            }
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<ReplyType>> outcomes = new ArrayList<>();
            for (QueryClient client : clients) {
                outcomes.add(pool.submit(() -> {
                    go.await();
                    QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                            .setConversationId(UUID.randomUUID().toString()).setUserId("it")
                            .setQuestion("Who takes amlodipine for hypertension?").setTopK(3).build();
                    List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
                    return events.get(events.size() - 1).getType();
                }));
            }
            go.countDown();
            long busy = 0;
            for (var outcome : outcomes) {
                ReplyType type = outcome.get();
                assertThat(type).isIn(ReplyType.BUSY, ReplyType.ANSWER, ReplyType.REFUSED);
                busy += type == ReplyType.BUSY ? 1 : 0;
            }
            return busy;
        } finally {
            pool.shutdownNow();
            for (QueryClient client : clients) {
                client.close();
            }
        }
    }

    /** Whether the query group has committed its input and the store everything it applied from the index log. */
    private static boolean committedEverything(PrometheusText m) {
        return !m.samples("chartstream_consumer_lag_records", Map.of("group", "chartstream-query", "topic", "chartstream.requests")).isEmpty()
                && m.samples("chartstream_index_store_lag_records", Map.of()).values().stream().allMatch(lag -> lag == 0.0);
    }

    private static void assertSaneMetrics(PrometheusText m) {
        for (String stage : List.of("rewrite", "embed", "search", "fuse", "rerank", "gate", "context", "generate", "total")) {
            assertThat(m.value("chartstream_query_stage_seconds_count", Map.of("stage", stage))).as(stage).isEqualTo(1.0);
        }
        double total = m.value("chartstream_query_stage_seconds_sum", Map.of("stage", "total"));
        assertThat(total).isGreaterThanOrEqualTo(m.value("chartstream_query_stage_seconds_sum", Map.of("stage", "search")))
                .isLessThan(60.0);
        assertThat(m.value("chartstream_query_answers_total", Map.of("outcome", "answer"))).isEqualTo(1.0);

        assertThat(m.value("chartstream_admission_in_flight", Map.of())).isEqualTo(0.0);
        assertThat(m.value("chartstream_admission_oldest_in_flight_ms", Map.of())).isEqualTo(0.0);
        assertThat(m.value("chartstream_admission_limit", Map.of())).isEqualTo((double) ADMISSION_LIMIT);
        assertThat(m.value("chartstream_admission_rejected_total", Map.of())).isEqualTo(0.0);

        // consumer lag: each group has committed up to the end of its inputs once the question is answered
        assertThat(m.value("chartstream_consumer_lag_records", Map.of("group", "chartstream-ingest", "topic", "ehr.public.patients")))
                .isEqualTo(0.0);
        assertThat(m.value("chartstream_consumer_lag_records", Map.of("group", "chartstream-ingest", "topic", "ehr.public.medications")))
                .isEqualTo(0.0);
        assertThat(m.value("chartstream_consumer_lag_records", Map.of("group", "chartstream-query", "topic", "chartstream.requests")))
                .isBetween(0.0, 1.0); // the answered request's offset may still await the next commit interval
        assertThat(m.value("chartstream_index_store_lag_records", Map.of("partition", "0"))).isEqualTo(0.0);
        Map<Map<String, String>, Double> fetchLag = m.samples("kafka_consumer_fetch_manager_records_lag",
                Map.of("topology", "index-materializer", "topic", "chartstream.index"));
        // Kafka's own per-partition gauge appears only once the binder has refreshed after the first fetch (up to
        // 60 s): when it is there it must agree; the lag gauges above are the ones read from the broker every scrape
        assertThat(fetchLag.values()).as("the materializer client's own fetch lag").allMatch(lag -> lag == 0.0);

        for (String table : List.of("patients", "medications")) {
            Map<String, String> tags = Map.of("source", "ehr", "table", table);
            assertThat(m.value("chartstream_generation_active", tags)).as(table).isGreaterThanOrEqualTo(1.0);
            assertThat(m.value("chartstream_generation_staged", tags)).as(table).isEqualTo(0.0);
            assertThat(m.value("chartstream_index_rows", tags)).as(table).isEqualTo(1.0);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> failing(HttpResponse<String> ready) throws Exception {
        JsonNode body = JSON.readTree(ready.body());
        List<String> names = new ArrayList<>();
        body.path("failing").forEach(n -> names.add(n.asText()));
        return names;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
