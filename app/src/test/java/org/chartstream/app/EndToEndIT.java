package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.chartstream.client.QueryClient;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path on real components: embedded KRaft broker, embedded PostgreSQL, Debezium, the ingest topology
 * with the ONNX model, the Lucene store, the query topology. A row inserted in PostgreSQL becomes searchable
 * through CDC and is cited in the reply to a question posted on the request topic; once deleted it is no longer cited.
 */
class EndToEndIT {
    private static final String REPLY_TOPIC = "chartstream.replies.e2e";
    private static final String PATIENT_ID = "5b0c0c59-8a1e-4a3c-9d0e-6f1f2f3a4b5c";

    @TempDir
    static Path dir;
    private static PipelineRuntime runtime;

    @BeforeAll
    static void start() {
        runtime = OnePatientPipeline.start(dir, "e2e",
                "('" + PATIENT_ID + "', 'MRN-900001', 'Ada', 'Quinlan', '1961-04-02', 'female', 'Salem', 'Massachusetts')", REPLY_TOPIC);
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void aRowInsertedInTheSourceIsCitedInTheReplyAndNoLongerOnceDeleted() throws Exception {
        execute("insert into medications (medication_id, patient_id, start_date, rxnorm_code, description, reason_description)"
                + " values (900001, '" + PATIENT_ID + "', '2024-11-02', '313419', 'Zolmitriptan 2.5 MG Oral Tablet', 'Migraine with aura')");
        long inserted = System.nanoTime();
        awaitIndexedRows("medications", 1);
        System.out.printf("[e2e] insert searchable after %d ms%n", (System.nanoTime() - inserted) / 1_000_000);

        try (QueryClient client = new QueryClient(runtime.bootstrapServers(), REPLY_TOPIC)) {
            List<ReplyEvent> events = client.ask(request("Which patient takes zolmitriptan for migraine?"), Duration.ofSeconds(60), e -> { });

            assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
            ReplyEvent answer = events.get(2);
            assertThat(answer.getExtractive()).isTrue();
            Citation first = answer.getCitations().get(0);
            assertThat(first.getTableName()).isEqualTo("medications");
            assertThat(first.getRowKey()).isEqualTo("900001");
            assertThat(first.getSourceId()).isEqualTo("ehr");
            assertThat(first.getGeneration()).isPositive();
            assertThat(first.getSourcePosition()).startsWith("lsn:");
            assertThat(first.getText()).contains("Ada Quinlan (MRN-900001)", "Zolmitriptan");

            execute("delete from medications where medication_id = 900001");
            long deleted = System.nanoTime();
            awaitIndexedRows("medications", 0);
            System.out.printf("[e2e] delete applied after %d ms%n", (System.nanoTime() - deleted) / 1_000_000);

            List<ReplyEvent> after = client.ask(request("Which patient takes zolmitriptan for migraine?"), Duration.ofSeconds(60), e -> { });
            ReplyEvent last = after.get(after.size() - 1);
            assertThat(last.getType()).isIn(ReplyType.ANSWER, ReplyType.REFUSED);
            assertThat(last.getCitations()).noneSatisfy(c -> assertThat(c.getTableName() + ":" + c.getRowKey()).isEqualTo("medications:900001"));
        }
    }

    private static QueryRequest request(String question) {
        return QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setConversationId("e2e")
                .setUserId("it").setQuestion(question).setTopK(3).build();
    }

    private static void execute(String sql) throws Exception {
        try (Connection c = runtime.postgres().connection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static void awaitIndexedRows(String table, long rows) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (runtime.indexedRowCounts().get(table) != rows) {
            assertThat(System.nanoTime()).as("%s reaches %d indexed rows within 60 s", table, rows).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
