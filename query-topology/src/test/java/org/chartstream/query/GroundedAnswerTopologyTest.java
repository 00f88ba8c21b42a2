package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.llm.OpenAiCompatibleTestServer;
import org.chartstream.query.request.KafkaReplyTopics;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
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

    @TempDir
    Path dir;
    private QueryTopologyFixture fixture;
    private OpenAiCompatibleTestServer llm;

    @BeforeEach
    void configure() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(List.of(fixture.chunk("medications", "m1",
                        "record: medications\npatient: Martha Collins (MRN-1)\ndescription: metformin hydrochloride 500 MG Oral Tablet")
                .patient("MRN-1").source("lsn:9", 1L).build()));
        llm = OpenAiCompatibleTestServer.start();
    }

    /** The topology with its default reply-topic checks, generating through the endpoint at {@code baseUrl}. */
    private void startTopology(String baseUrl) {
        LlmEndpoint endpoint = LlmEndpoint.of(baseUrl, "local-test-model")
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5));
        fixture.start("grounded-test", new OpenAiCompatibleChatClient(endpoint), (serving, replies) ->
                QueryTopology.build(serving, KafkaReplyTopics::fromStreamsConfig, replies));
    }

    @AfterEach
    void close() {
        fixture.close();
        llm.close();
    }

    private List<ReplyEvent> ask(String id, String question) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("u")
                .setQuestion(question).setTopK(3).build();
        fixture.produce("c-" + id, QueryTopologyFixture.bytes(r), REPLY_TOPIC, null);
        fixture.awaitIdle();
        return fixture.replies(REPLY_TOPIC).readValuesToList();
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
        // the final text says, after the streamed answer, that a ranked answer lists the most relevant records
        assertThat(answer.getText()).isEqualTo("Martha Collins takes metformin [1].\n\n"
                + "(lists the most relevant records, not every matching one.)");
        assertThat(answer.getFlaggedCitations()).isEmpty();
        assertThat(answer.getCitations().get(0).getRowKey()).isEqualTo("m1");
        assertThat(events).extracting(ReplyEvent::getSeq).isSorted().doesNotHaveDuplicates();
        AnswerAudit record = fixture.audit().readValue();
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
        assertThat(fixture.audit().readValue().getFlaggedCitations()).containsExactly(7);
    }

    @Test
    void anEndpointThatIsDownOrStallsGivesAnUnavailableReplyAndNeverAnotherAnswer() {
        startTopology(OpenAiCompatibleTestServer.refusedBaseUrl());
        List<ReplyEvent> down = ask("g3", "metformin patients");
        assertThat(down.get(down.size() - 1).getType()).isEqualTo(ReplyType.UNAVAILABLE);
        assertThat(down.get(down.size() - 1).getText()).contains("unavailable").doesNotContain("Extractive");

        llm.respondWith(OpenAiCompatibleTestServer.stall());
        startTopology(llm.baseUrl());
        long start = System.nanoTime();
        List<ReplyEvent> stalled = ask("g4", "metformin patients");
        assertThat(stalled.get(stalled.size() - 1).getType()).isEqualTo(ReplyType.UNAVAILABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }
}
