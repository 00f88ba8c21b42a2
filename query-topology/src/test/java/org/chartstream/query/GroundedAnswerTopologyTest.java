package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.llm.OpenAiCompatibleTestServer;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.StandardStages;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grounded generation through a local OpenAI-compatible endpoint. No LLM server can run on these machines, so the
 * endpoint is {@link OpenAiCompatibleTestServer}, a test double speaking the chat-completions protocol; everything
 * else is real (ONNX model, Lucene store, the query topology).
 */
class GroundedAnswerTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies.grounded";
    private static final AvroSerde<QueryRequest> REQUESTS = AvroSerde.of(QueryRequest.class);

    @TempDir
    Path dir;
    private OnnxEmbedder model;
    private LuceneHybridStore store;
    private ExecutorService executor;
    private ExecutorService workers;
    private AdmissionControl admission;
    private OpenAiCompatibleTestServer llm;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> requests;
    private TestOutputTopic<String, ReplyEvent> replies;
    private TestOutputTopic<String, AnswerAudit> audit;

    @BeforeEach
    void configure() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        store = LuceneHybridStore.open(dir.resolve("index"));
        String text = "record: medications\npatient: Martha Collins (MRN-1)\ndescription: metformin hydrochloride 500 MG Oral Tablet";
        RowRef row = new RowRef("ehr", "medications", "m1");
        store.upsertRow(row, 1, List.of(new StoredChunk(StoredChunk.chunkId(row, 0, 1), row, 0, 1, 1, text,
                model.embedPassages(List.of(text))[0], "MRN-1", "lsn:9", 1L, model.modelId())));
        store.publish(new TableRef("ehr", "medications"), 1);
        store.commit(Map.of());
        llm = OpenAiCompatibleTestServer.start();
    }

    private void startTopology(String baseUrl) {
        executor = Executors.newFixedThreadPool(2);
        workers = Executors.newFixedThreadPool(2);
        admission = new AdmissionControl(4);
        QuerySettings settings = QuerySettings.defaults();
        LlmEndpoint endpoint = LlmEndpoint.of(baseUrl, "local-test-model")
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5));
        QueryPipeline pipeline = new QueryPipeline(StandardStages.of(QueryEmbedder.of(model), store, executor, settings,
                new BiEncoderReranker(model), model.tokenizer()::countTokens, new OpenAiCompatibleChatClient(endpoint)), settings);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "grounded-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
        driver = new TopologyTestDriver(QueryTopology.build(pipeline, settings, workers, admission), props);
        requests = driver.createInputTopic(Topics.REQUESTS, new StringSerializer(), new ByteArraySerializer());
        replies = driver.createOutputTopic(REPLY_TOPIC, new StringDeserializer(), AvroSerde.of(ReplyEvent.class));
        audit = driver.createOutputTopic(Topics.AUDIT, new StringDeserializer(), AvroSerde.of(AnswerAudit.class));
    }

    @AfterEach
    void close() {
        driver.close();
        workers.shutdownNow();
        executor.shutdownNow();
        llm.close();
        store.close();
        model.close();
    }

    private List<ReplyEvent> ask(String id, String question) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.HEADER_REPLY_TO, REPLY_TOPIC.getBytes(StandardCharsets.UTF_8));
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("u")
                .setQuestion(question).setTopK(3).build();
        requests.pipeInput(new TestRecord<>("c-" + id, REQUESTS.serialize(r), headers));
        long deadline = System.nanoTime() + 30_000_000_000L;
        do {
            driver.advanceWallClockTime(Duration.ofMillis(20));
            sleep();
        } while (admission.inFlight() > 0 && System.nanoTime() < deadline);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        return replies.readValuesToList();
    }

    private static void sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void citationsComeFirstThenStreamedTokensThenTheGroundedAnswer() {
        llm.respondWith(OpenAiCompatibleTestServer.stream(List.of("Martha Collins ", "takes metformin ", "[1].")));
        startTopology(llm.baseUrl());

        List<ReplyEvent> events = ask("g1", "metformin patients");

        assertThat(events.get(0).getType()).isEqualTo(ReplyType.ACCEPTED);
        assertThat(events.get(1).getType()).isEqualTo(ReplyType.CITATIONS);
        assertThat(events.subList(2, events.size() - 1)).extracting(ReplyEvent::getType).containsOnly(ReplyType.TOKEN);
        assertThat(events.subList(2, events.size() - 1).stream().map(ReplyEvent::getText).collect(Collectors.joining()))
                .isEqualTo("Martha Collins takes metformin [1].");
        ReplyEvent answer = events.get(events.size() - 1);
        assertThat(answer.getType()).isEqualTo(ReplyType.ANSWER);
        assertThat(answer.getExtractive()).isFalse();
        assertThat(answer.getText()).isEqualTo("Martha Collins takes metformin [1].");
        assertThat(answer.getFlaggedCitations()).isEmpty();
        assertThat(answer.getCitations().get(0).getRowKey()).isEqualTo("m1");
        assertThat(events).extracting(ReplyEvent::getSeq).isSorted().doesNotHaveDuplicates();
        AnswerAudit record = audit.readValue();
        assertThat(record.getGenerationModel()).contains("local-test-model");
        assertThat(llm.requests()).hasSize(1);
        assertThat(llm.requests().get(0).path()).endsWith("/chat/completions");
    }

    @Test
    void aCitationThatNamesNoPassageIsFlaggedInTheReplyAndTheAudit() {
        llm.respondWith(OpenAiCompatibleTestServer.stream(List.of("Metformin [1], see also [7].")));
        startTopology(llm.baseUrl());

        ReplyEvent answer = ask("g2", "metformin patients").stream().filter(e -> e.getType() == ReplyType.ANSWER).findFirst().orElseThrow();

        assertThat(answer.getFlaggedCitations()).containsExactly(7);
        assertThat(audit.readValue().getFlaggedCitations()).containsExactly(7);
    }

    @Test
    void anEndpointThatIsDownOrStallsGivesAnUnavailableReplyAndNeverAnotherAnswer() {
        startTopology(OpenAiCompatibleTestServer.refusedBaseUrl());
        List<ReplyEvent> down = ask("g3", "metformin patients");
        assertThat(down.get(down.size() - 1).getType()).isEqualTo(ReplyType.UNAVAILABLE);
        assertThat(down.get(down.size() - 1).getText()).contains("unavailable").doesNotContain("Extractive");
        driver.close();
        workers.shutdownNow();
        executor.shutdownNow();

        llm.respondWith(OpenAiCompatibleTestServer.stall());
        startTopology(llm.baseUrl());
        long start = System.nanoTime();
        List<ReplyEvent> stalled = ask("g4", "metformin patients");
        assertThat(stalled.get(stalled.size() - 1).getType()).isEqualTo(ReplyType.UNAVAILABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }
}
