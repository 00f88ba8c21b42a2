package org.chartstream.retrieval.generate;

import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.llm.OpenAiCompatibleTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class LlmGroundedGeneratorContractTest extends GeneratorContract {
    private static OpenAiCompatibleTestServer server;
    private static LlmGroundedGenerator generator;

    @BeforeAll
    static void start() {
        server = OpenAiCompatibleTestServer.start();
        server.respondWith(OpenAiCompatibleTestServer.answer("Ana Ruiz takes lisinopril 10 mg daily [1] for hypertension [2]."));
        generator = new LlmGroundedGenerator(new OpenAiCompatibleChatClient(LlmEndpoint.of(server.baseUrl(), "local-llm")),
                GenerationSettings.defaults());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Override
    Generator generator() {
        return generator;
    }
}
