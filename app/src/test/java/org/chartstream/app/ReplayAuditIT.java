package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.chartstream.app.audit.ReplyLog;
import org.chartstream.app.audit.TimeWindow;
import org.chartstream.app.audit.TopicReader;
import org.chartstream.client.QueryClient;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.TableRef;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `chartstream audit` and `chartstream replay --compare` on the real embedded pipeline, run as the command line
 * runs them: two questions are answered citing two medication rows; in PostgreSQL one row is then updated and the
 * other deleted; once CDC has brought both changes into the index, the audit flags the first citation CHANGED and
 * the second DELETED, and the replay reports the first row cited in another version and the second no longer cited.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplayAuditIT {
    private static final String REPLY_TOPIC = "chartstream.replies.audit-it";
    private static final String PATIENT_ID = "6c1d1d6a-9b2f-4b4d-8e1f-7a2b3c4d5e6f";
    private static final String ZOLMITRIPTAN_QUESTION = "Which patient takes zolmitriptan for migraine?";
    private static final RowRef UPDATED = new RowRef("ehr", "medications", "900101");
    private static final RowRef DELETED = new RowRef("ehr", "medications", "900102");

    @TempDir
    static Path dir;
    private static PipelineRuntime runtime;
    private static Path configFile;
    private static Instant asked;
    private static final List<String> requestIds = new ArrayList<>();

    @BeforeAll
    static void askThenChangeTheCitedRows() throws Exception {
        runtime = OnePatientPipeline.start(dir, "audit-it",
                "('" + PATIENT_ID + "', 'MRN-900101', 'Bea', 'Tallis', '1958-02-11', 'female', 'Lowell', 'Massachusetts')", REPLY_TOPIC);
        configFile = Files.writeString(dir.resolve("chartstream.properties"), "data.dir=" + dir + "\n");
        execute("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description) values"
                + " (900101, '" + PATIENT_ID + "', '2024-11-02', '313419', 'Zolmitriptan 2.5 MG Oral Tablet', 'Migraine with aura'),"
                + " (900102, '" + PATIENT_ID + "', '2023-05-14', '1049221', 'Warfarin Sodium 5 MG Oral Tablet', 'Atrial fibrillation')");
        awaitIndexedRows(2);
        asked = Instant.now().minusSeconds(1);
        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            assertThat(citedRows(client, ZOLMITRIPTAN_QUESTION)).contains(UPDATED.rowKey());
            assertThat(citedRows(client, "Which patient takes warfarin for atrial fibrillation?")).contains(DELETED.rowKey());
        }
        // an answer's audit record commits with the query topology's next transaction (query.commit-interval-ms), which
        // a fast index update can beat: the audit below reads committed records only
        ReplyLog log = new ReplyLog(new TopicReader(runtime.bootstrapServers(), Map.of()));
        long auditDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (log.audits(new TimeWindow(asked, Instant.now()), false).size() < 2) {
            assertThat(System.nanoTime()).as("both answers' audit records are committed within 30 s").isLessThan(auditDeadline);
            Thread.sleep(100);
        }
        String citedPosition = runtime.store().rowChunks(UPDATED).get(0).sourcePosition();
        execute("update medications set reason_description = 'Chronic migraine without aura' where medication_id = 900101");
        execute("delete from medications where medication_id = 900102");
        awaitIndexedRows(1);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (runtime.store().rowChunks(UPDATED).get(0).sourcePosition().equals(citedPosition)) {
            assertThat(System.nanoTime()).as("the update reaches the index within 60 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    @Order(1)
    void auditFlagsTheUpdatedRowChangedAndTheDeletedRowDeleted() throws Exception {
        Run run = cli("audit", "--from", asked.toString(), "--json");
        assertThat(run.exitCode).as("exit code 3: citations are flagged").isEqualTo(3);
        JsonNode audit = new ObjectMapper().readTree(lastLine(run.out));
        assertThat(audit.at("/answers")).hasSize(2);
        for (JsonNode answer : audit.at("/answers")) {
            assertThat(requestIds).contains(answer.get("request_id").asText());
        }
        assertThat(statusOf(audit, UPDATED)).isEqualTo("CHANGED");
        assertThat(statusOf(audit, DELETED)).isEqualTo("DELETED");
        JsonNode updated = citation(audit, UPDATED);
        assertThat(updated.get("current_source_position").asText()).isNotEqualTo(updated.get("source_position").asText());
        assertThat(updated.get("detail").asText()).startsWith("row changed at the source: position lsn:").endsWith("content differs");
        assertThat(updated.get("content_sha256").asText()).matches("[0-9a-f]{64}")
                .isNotEqualTo(updated.get("current_content_sha256").asText());
        assertThat(audit.at("/summary/changed").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(audit.at("/summary/deleted").asLong()).isGreaterThanOrEqualTo(1);

        Run text = cli("audit", "--from", asked.toString());
        assertThat(text.out).contains("CHANGED ehr:medications:900101", "DELETED ehr:medications:900102")
                .doesNotContain("Zolmitriptan", "Warfarin", "Tallis", "migraine", ZOLMITRIPTAN_QUESTION);
        assertThat(cli("audit", "--from", asked.toString(), "--show-text").out)
                .as("--show-text prints the rows' current text").contains("Chronic migraine without aura");
    }

    @Test
    @Order(2)
    void replayComparesTheNewAnswersWithTheOriginals() throws Exception {
        Run run = cli("replay", "--from", asked.toString(), "--compare", "--json");
        JsonNode replay = new ObjectMapper().readTree(lastLine(run.out));
        assertThat(replay.get("reply_topic").asText()).startsWith("chartstream.replay.").isNotEqualTo(REPLY_TOPIC);
        assertThat(replay.at("/summary/requests").asInt()).isEqualTo(2);
        assertThat(replay.at("/summary/answered").asInt()).isEqualTo(2);
        assertThat(replay.at("/summary/changed").asInt()).isEqualTo(2);
        assertThat(run.exitCode).isEqualTo(3);
        JsonNode first = request(replay, requestIds.get(0));
        assertThat(first.get("status").asText()).isEqualTo("changed");
        assertThat(first.get("citations_revised").toString()).contains(UPDATED.id());
        assertThat(first.get("answer_text").asText()).isEqualTo("changed");
        JsonNode second = request(replay, requestIds.get(1));
        assertThat(second.get("status").asText()).isEqualTo("changed");
        assertThat(second.get("citations_removed").toString()).contains(DELETED.id());
        assertThat(run.out).doesNotContain("Zolmitriptan", "Warfarin", "Tallis");

        Run again = cli("replay", "--from", asked.toString(), "--compare");
        assertThat(again.out.lines().filter(l -> l.contains("#replay-")).toList())
                .as("a replay never replays an earlier replay").isEmpty();
        assertThat(lastLine(again.out)).matches("replay \\S+: 2 requests, 2 answered into chartstream\\.replay\\.\\S+; 0 same, 2 changed");
    }

    private record Run(int exitCode, String out) {
    }

    private static Run cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap", runtime.bootstrapServers(), "--config", configFile.toString()));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new Main()).execute(all.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        original.println("[audit-it] chartstream " + String.join(" ", args) + " -> exit " + code + "\n" + out);
        return new Run(code, out);
    }

    private static String lastLine(String out) {
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        return lines.get(lines.size() - 1);
    }

    private static JsonNode citation(JsonNode audit, RowRef row) {
        for (JsonNode answer : audit.at("/answers")) {
            for (JsonNode c : answer.get("citations")) {
                if (c.get("row").asText().equals(row.id())) {
                    return c;
                }
            }
        }
        throw new AssertionError(row.id() + " is cited by no audited answer");
    }

    private static String statusOf(JsonNode audit, RowRef row) {
        return citation(audit, row).get("status").asText();
    }

    private static JsonNode request(JsonNode replay, String requestId) {
        for (JsonNode r : replay.get("requests")) {
            if (r.get("request_id").asText().equals(requestId)) {
                return r;
            }
        }
        throw new AssertionError("request " + requestId + " was not replayed");
    }

    private static List<String> citedRows(QueryClient client, String question) {
        QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setConversationId(UUID.randomUUID().toString())
                .setUserId("it").setQuestion(question).setTopK(3).build();
        requestIds.add(request.getRequestId());
        List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
        return events.get(events.size() - 1).getCitations().stream().map(Citation::getRowKey).toList();
    }

    private static void execute(String sql) throws Exception {
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static void awaitIndexedRows(long rows) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (runtime.store().countRows(new TableRef("ehr", "medications")) != rows) {
            assertThat(System.nanoTime()).as("medications reach %d indexed rows within 60 s", rows).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
