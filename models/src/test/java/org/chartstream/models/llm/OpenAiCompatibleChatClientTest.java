package org.chartstream.models.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.after;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.answer;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.httpError;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.malformedJson;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.malformedStream;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.notACompletion;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.redirectTo;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.stall;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.stream;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.streamEndingEarly;
import static org.chartstream.models.llm.OpenAiCompatibleTestServer.streamThenStall;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.llm.ChatMessage;
import org.chartstream.core.llm.ChatRequest;
import org.chartstream.core.llm.ChatResult;
import org.chartstream.core.llm.LlmFailureKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client against {@link OpenAiCompatibleTestServer}, a local stand-in for an LLM server. */
class OpenAiCompatibleChatClientTest {
    private static final ChatRequest QUESTION = ChatRequest.of(List.of(
            ChatMessage.system("answer briefly"), ChatMessage.user("what is hypertension?")));

    private OpenAiCompatibleTestServer server;
    private OpenAiCompatibleChatClient client;

    @BeforeEach
    void start() {
        server = OpenAiCompatibleTestServer.start();
        client = new OpenAiCompatibleChatClient(endpoint(server.baseUrl()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Generous limits: answers must not time out on a loaded build machine. */
    private static LlmEndpoint endpoint(String baseUrl) {
        return LlmEndpoint.of(baseUrl, "local-model")
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    /** A read timeout of one second, for the tests where the server stalls. */
    private static OpenAiCompatibleChatClient impatientClient(String baseUrl) {
        return new OpenAiCompatibleChatClient(LlmEndpoint.of(baseUrl, "local-model")
                .withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(1_000), Duration.ofSeconds(10)));
    }

    @Test
    void completesAndSendsTheOpenAiRequestShape() {
        server.respondWith(answer("High blood pressure."));

        ChatResult result = client.complete(QUESTION.withMaxTokens(64));

        assertThat(result).isInstanceOfSatisfying(ChatResult.Completed.class, c -> {
            assertThat(c.content()).isEqualTo("High blood pressure.");
            assertThat(c.finishReason()).isEqualTo("stop");
            assertThat(c.model()).isEqualTo("test-model");
        });
        OpenAiCompatibleTestServer.ReceivedRequest sent = server.requests().get(0);
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Content-Type")).isEqualTo("application/json");
        assertThat(sent.header("Authorization")).isNull();
        JsonNode body = sent.body();
        assertThat(body.path("model").asText()).isEqualTo("local-model");
        assertThat(body.path("stream").asBoolean(true)).isFalse();
        assertThat(body.path("max_tokens").asInt()).isEqualTo(64);
        assertThat(body.path("temperature").asDouble(-1)).isZero();
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
        assertThat(body.path("messages").get(1).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").get(1).path("content").asText()).isEqualTo("what is hypertension?");
    }

    @Test
    void streamsTokensAsTheyArrive() {
        server.respondWith(stream(List.of("High", " blood", " pressure", " [1].")));
        List<String> tokens = new ArrayList<>();

        ChatResult result = client.stream(QUESTION, tokens::add);

        assertThat(tokens).containsExactly("High", " blood", " pressure", " [1].");
        assertThat(result).isInstanceOfSatisfying(ChatResult.Completed.class, c -> {
            assertThat(c.content()).isEqualTo("High blood pressure [1].");
            assertThat(c.finishReason()).isEqualTo("stop");
        });
        assertThat(server.requests().get(0).body().path("stream").asBoolean()).isTrue();
        assertThat(server.requests().get(0).header("Accept")).isEqualTo("text/event-stream");
    }

    @Test
    void aServerThatIgnoresStreamingStillAnswersInOnePiece() {
        server.respondWith(OpenAiCompatibleTestServer.answerIgnoringStream("whole answer"));
        List<String> tokens = new ArrayList<>();

        ChatResult result = client.stream(QUESTION, tokens::add);

        assertThat(tokens).containsExactly("whole answer");
        assertThat(result).isInstanceOf(ChatResult.Completed.class);
    }

    @Test
    void aServerThatNeverAnswersTimesOutAtTheReadTimeout() {
        server.respondWith(stall());

        long t0 = System.nanoTime();
        ChatResult result = impatientClient(server.baseUrl()).complete(QUESTION);
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertFailed(result, LlmFailureKind.TIMEOUT, "no response within 1000 ms (read timeout)");
        assertThat(ms).isBetween(990L, 9_000L);
    }

    @Test
    void aStreamThatStallsTimesOutAndCountsTheTokensAlreadyDelivered() {
        server.respondWith(streamThenStall(List.of("High", " blood")));
        List<String> tokens = new ArrayList<>();

        ChatResult result = impatientClient(server.baseUrl()).stream(QUESTION, tokens::add);

        assertThat(tokens).containsExactly("High", " blood");
        assertFailed(result, LlmFailureKind.TIMEOUT, "stalled: no data for 1000 ms (read timeout)");
        assertThat(((ChatResult.Failed) result).tokensDelivered()).isEqualTo(2);
    }

    @Test
    void theRequestDeadlineBoundsAServerThatKeepsGoingSlowly() {
        server.respondWith(after(Duration.ofMillis(300), answer("late")));

        ChatResult result = client.complete(QUESTION.withDeadline(Duration.ofMillis(150)));

        assertFailed(result, LlmFailureKind.TIMEOUT, "deadline of 150 ms exceeded");
        assertThat(result.elapsed()).isLessThan(Duration.ofMillis(5_000));
    }

    @Test
    void malformedJsonIsMalformed() {
        server.respondWith(malformedJson());

        assertFailed(client.complete(QUESTION), LlmFailureKind.MALFORMED, "not JSON");
    }

    @Test
    void jsonWithoutAMessageIsMalformed() {
        server.respondWith(notACompletion());

        assertFailed(client.complete(QUESTION), LlmFailureKind.MALFORMED, "choices[0].message.content");
    }

    @Test
    void aBrokenStreamIsMalformedAfterTheTokensBeforeIt() {
        server.respondWith(malformedStream());
        List<String> tokens = new ArrayList<>();

        ChatResult result = client.stream(QUESTION, tokens::add);

        assertFailed(result, LlmFailureKind.MALFORMED, "stream chunk is not JSON");
        assertThat(tokens).containsExactly("Hyper");
        assertThat(((ChatResult.Failed) result).tokensDelivered()).isEqualTo(1);
    }

    @Test
    void aStreamThatEndsWithoutDoneIsMalformed() {
        server.respondWith(streamEndingEarly(List.of("High")));

        assertFailed(client.stream(QUESTION, t -> { }), LlmFailureKind.MALFORMED, "[DONE]");
    }

    @Test
    void aServerErrorIsAnHttpErrorWithItsStatus() {
        server.respondWith(httpError(500));

        ChatResult result = client.complete(QUESTION);

        assertFailed(result, LlmFailureKind.HTTP_ERROR, "HTTP 500");
        assertThat(((ChatResult.Failed) result).httpStatus()).isEqualTo(500);
        assertFailed(client.stream(QUESTION, t -> { }), LlmFailureKind.HTTP_ERROR, "HTTP 500");
    }

    @Test
    void aServerThatIsDownIsUnavailable() {
        OpenAiCompatibleChatClient down = new OpenAiCompatibleChatClient(endpoint(OpenAiCompatibleTestServer.refusedBaseUrl()));

        assertFailed(down.complete(QUESTION), LlmFailureKind.UNAVAILABLE, "connection refused");
        assertFailed(down.stream(QUESTION, t -> { }), LlmFailureKind.UNAVAILABLE, "connection refused");
    }

    @Test
    void aServerThatWentDownIsUnavailable() {
        server.respondWith(answer("fine"));
        assertThat(client.complete(QUESTION)).isInstanceOf(ChatResult.Completed.class);

        server.close();

        assertFailed(client.complete(QUESTION), LlmFailureKind.UNAVAILABLE, "");
    }

    @Test
    void redirectsAreNotFollowedSoOnlyTheBaseUrlIsContacted() {
        try (OpenAiCompatibleTestServer elsewhere = OpenAiCompatibleTestServer.start()) {
            server.respondWith(redirectTo(elsewhere.baseUrl() + "/chat/completions"));

            assertFailed(client.complete(QUESTION), LlmFailureKind.HTTP_ERROR, "HTTP 307");
            assertThat(elsewhere.requests()).isEmpty();
        }
    }

    @Test
    void anApiKeyIsSentAsABearerTokenAndNeverPrinted() {
        LlmEndpoint withKey = endpoint(server.baseUrl()).withApiKey("secret-key");
        server.respondWith(answer("ok"));

        new OpenAiCompatibleChatClient(withKey).complete(QUESTION);

        assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer secret-key");
        assertThat(withKey.toString()).doesNotContain("secret-key").contains("api key set");
    }

    @Test
    void theEndpointAcceptsOnlyAPlainHttpBaseUrl() {
        assertThat(LlmEndpoint.of("http://127.0.0.1:8080/v1/", "m").chatCompletionsUrl())
                .hasToString("http://127.0.0.1:8080/v1/chat/completions");
        assertThatThrownBy(() -> LlmEndpoint.of("ftp://127.0.0.1/v1", "m")).hasMessageContaining("http or https");
        assertThatThrownBy(() -> LlmEndpoint.of("http://user:pw@127.0.0.1/v1", "m")).hasMessageContaining("user info");
        assertThatThrownBy(() -> LlmEndpoint.of("http://127.0.0.1/v1?redirect=x", "m")).hasMessageContaining("query");
        assertThatThrownBy(() -> LlmEndpoint.of("http://127.0.0.1/v1", " ")).hasMessageContaining("model");
    }

    @Test
    void messagesPrintWithoutTheirText() {
        assertThat(ChatMessage.user("Maria has diabetes").toString()).doesNotContain("Maria").contains("18 chars");
        assertThat(new ChatResult.Completed("Maria has diabetes", "stop", "m", Duration.ZERO).toString()).doesNotContain("Maria");
    }

    private static void assertFailed(ChatResult result, LlmFailureKind kind, String detail) {
        assertThat(result).isInstanceOfSatisfying(ChatResult.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(kind);
            assertThat(f.detail()).contains(detail);
        });
    }
}
