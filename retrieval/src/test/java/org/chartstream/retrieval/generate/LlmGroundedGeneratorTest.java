package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.llm.LlmFailureKind;
import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.llm.OpenAiCompatibleTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Generation through the real client against {@link OpenAiCompatibleTestServer}. */
class LlmGroundedGeneratorTest {
    private OpenAiCompatibleTestServer server;
    private LlmGroundedGenerator generator;
    private final List<String> tokens = new ArrayList<>();

    @BeforeEach
    void start() {
        server = OpenAiCompatibleTestServer.start();
        generator = generatorAt(server.baseUrl());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static LlmGroundedGenerator generatorAt(String baseUrl) {
        return generatorAt(baseUrl, Duration.ofSeconds(5));
    }

    private static LlmGroundedGenerator generatorAt(String baseUrl, Duration readTimeout) {
        LlmEndpoint endpoint = LlmEndpoint.of(baseUrl, "local-llm")
                .withTimeouts(Duration.ofSeconds(2), readTimeout, Duration.ofSeconds(10));
        return new LlmGroundedGenerator(new OpenAiCompatibleChatClient(endpoint), GenerationSettings.defaults());
    }

    @Test
    void streamsTheAnswerAndChecksItsCitations() {
        server.respondWith(OpenAiCompatibleTestServer.stream(List.of("Ana Ruiz", " takes lisinopril", " 10 mg daily [1]", " for", " hypertension [2].")));

        GenerationResult result = generator.generate("What does Ana Ruiz take?", TestPassages.six(), tokens::add);

        assertThat(tokens).containsExactly("Ana Ruiz", " takes lisinopril", " 10 mg daily [1]", " for", " hypertension [2].");
        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.ANSWERED);
        assertThat(result.answer()).isEqualTo(String.join("", tokens));
        assertThat(result.citations().cited()).containsExactly(1, 2);
        assertThat(result.citations().flagged()).isFalse();
        assertThat(result.tokensStreamed()).isEqualTo(5);
        assertThat(result.generator()).isEqualTo("local-llm");
        assertThat(result.detail()).isEqualTo("answer cites passages [1, 2]");
        JsonNode sent = server.requests().get(0).body();
        assertThat(sent.path("stream").asBoolean()).isTrue();
        assertThat(sent.path("max_tokens").asInt()).isEqualTo(512);
        assertThat(sent.path("messages").get(1).path("content").asText()).contains("[6] record: notes");
    }

    @Test
    void anOutOfRangeCitationIsFlagged() {
        server.respondWith(OpenAiCompatibleTestServer.answer("She takes lisinopril [1] and aspirin [7]."));

        GenerationResult result = generator.generate("What does Ana Ruiz take?", TestPassages.six(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.ANSWERED);
        assertThat(result.citations().outOfRange()).containsExactly(7);
        assertThat(result.citations().flagged()).isTrue();
        assertThat(result.detail()).isEqualTo("answer cites passages that do not exist: [7]");
    }

    @Test
    void theModelsRefusalIsARefusal() {
        server.respondWith(OpenAiCompatibleTestServer.answer(GroundedPrompt.REFUSAL));

        GenerationResult result = generator.generate("What is her blood type?", TestPassages.six(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.REFUSED);
        assertThat(result.detail()).isEqualTo("the model found no support in the passages");
    }

    @Test
    void aServerThatIsDownMeansUnavailableAndNothingElse() {
        LlmGroundedGenerator down = generatorAt(OpenAiCompatibleTestServer.refusedBaseUrl());

        GenerationResult result = down.generate("What does Ana Ruiz take?", TestPassages.six(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.UNAVAILABLE);
        assertThat(result.failure()).isEqualTo(LlmFailureKind.UNAVAILABLE);
        assertThat(result.answer()).isEmpty();
        assertThat(result.detail()).isEqualTo("generation model unavailable (unavailable: connection refused)");
        assertThat(tokens).isEmpty();
    }

    @Test
    void aStreamThatStallsIsUnavailableWithItsPartialTokensCounted() {
        server.respondWith(OpenAiCompatibleTestServer.streamThenStall(List.of("Ana", " takes")));

        GenerationResult result = generatorAt(server.baseUrl(), Duration.ofSeconds(1)).generate("What does Ana Ruiz take?", TestPassages.six(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.UNAVAILABLE);
        assertThat(result.failure()).isEqualTo(LlmFailureKind.TIMEOUT);
        assertThat(result.tokensStreamed()).isEqualTo(2);
        assertThat(tokens).containsExactly("Ana", " takes");
    }

    @Test
    void serverErrorsAndMalformedStreamsAreUnavailable() {
        server.respondWith(OpenAiCompatibleTestServer.httpError(500), OpenAiCompatibleTestServer.malformedStream());

        GenerationResult error = generator.generate("q", TestPassages.six(), tokens::add);
        GenerationResult malformed = generator.generate("q", TestPassages.six(), tokens::add);

        assertThat(error.outcome()).isEqualTo(GenerationResult.Outcome.UNAVAILABLE);
        assertThat(error.failure()).isEqualTo(LlmFailureKind.HTTP_ERROR);
        assertThat(malformed.outcome()).isEqualTo(GenerationResult.Outcome.UNAVAILABLE);
        assertThat(malformed.failure()).isEqualTo(LlmFailureKind.MALFORMED);
    }

    @Test
    void withoutPassagesTheModelIsNotAsked() {
        GenerationResult result = generator.generate("q", List.of(), tokens::add);

        assertThat(result.outcome()).isEqualTo(GenerationResult.Outcome.REFUSED);
        assertThat(server.requests()).isEmpty();
    }
}
