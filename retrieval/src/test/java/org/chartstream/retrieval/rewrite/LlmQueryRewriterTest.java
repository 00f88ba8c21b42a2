package org.chartstream.retrieval.rewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.core.llm.ScriptedChatModel.completed;
import static org.chartstream.core.llm.ScriptedChatModel.failed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.llm.ChatMessage;
import org.chartstream.core.llm.LlmFailureKind;
import org.chartstream.core.llm.ScriptedChatModel;
import org.chartstream.models.llm.LlmEndpoint;
import org.chartstream.models.llm.OpenAiCompatibleChatClient;
import org.chartstream.models.llm.OpenAiCompatibleTestServer;
import org.junit.jupiter.api.Test;

class LlmQueryRewriterTest {
    private static final String FOLLOW_UP = "what medication was she given for it";
    private static final ConversationHistory HISTORY = new ConversationHistory("Talking about Ana Ruiz.",
            List.of(new RecentTurn("does Ana Ruiz have hypertension?", "Yes, essential hypertension [1].")));
    private static final String STANDALONE = "what medication was Ana Ruiz given for hypertension";

    private final RewriteSettings settings = RewriteSettings.defaults();

    @Test
    void resolvesReferencesAndExpandsToThreeQueries() {
        ScriptedChatModel model = new ScriptedChatModel(completed("{\"standalone\": \"" + STANDALONE + "\", \"alternatives\":"
                + " [\"antihypertensive drugs prescribed to Ana Ruiz\", \"Ana Ruiz blood pressure medicine\"]}"));

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite(FOLLOW_UP, HISTORY);

        assertThat(result.queries()).containsExactly(STANDALONE, "antihypertensive drugs prescribed to Ana Ruiz",
                "Ana Ruiz blood pressure medicine");
        assertThat(result.primary()).isEqualTo(STANDALONE);
        assertThat(result.rewritten()).isTrue();
        assertThat(result.expanded()).isTrue();
        assertThat(result.reason()).isEqualTo("rewritten as a standalone question (1 turn and a summary); expanded to 3 queries")
                .doesNotContain("Ana");
        assertThat(model.requests()).hasSize(1);
        assertThat(model.requests().get(0).deadline()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void thePromptCarriesTheSummaryTheLastEightTurnsAndTheQuestion() {
        List<RecentTurn> turns = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            turns.add(new RecentTurn("question number " + i, "answer number " + i));
        }
        ScriptedChatModel model = new ScriptedChatModel(completed("{\"standalone\": \"" + STANDALONE + "\", \"alternatives\": []}"));

        new LlmQueryRewriter(model, settings).rewrite(FOLLOW_UP, new ConversationHistory("earlier summary", turns));

        List<ChatMessage> messages = model.requests().get(0).messages();
        assertThat(messages.get(0).role()).isEqualTo(ChatMessage.Role.SYSTEM);
        assertThat(messages.get(0).content()).contains("exactly 2 other phrasings", "JSON");
        String user = messages.get(1).content();
        assertThat(user).contains("earlier summary", "question number 3", "answer number 10", "Latest question: " + FOLLOW_UP)
                .doesNotContain("question number 2\n");
    }

    @Test
    void withoutHistoryTheQuestionStaysPrimaryAndOnlyExpansionsAreUsed() {
        String question = "which patients have high blood pressure and diabetes";
        ScriptedChatModel model = new ScriptedChatModel(completed("```json\n{\"standalone\": \"something else entirely\","
                + " \"alternatives\": [\"patients with hypertension and diabetes mellitus\", \"Which patients have HIGH blood"
                + " pressure and diabetes?\", \"hypertensive diabetic patients\", \"a fourth one\"]}\n```"));

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite(question, ConversationHistory.EMPTY);

        assertThat(result.queries()).containsExactly(question, "patients with hypertension and diabetes mellitus",
                "hypertensive diabetic patients");
        assertThat(result.rewritten()).isFalse();
        assertThat(result.reason()).isEqualTo("no conversation history; expanded to 3 queries");
    }

    @Test
    void aQuestionUnderASkipRuleWithoutHistoryMakesNoCall() {
        ScriptedChatModel model = new ScriptedChatModel();

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite("patients coded E11.9 with a recent visit",
                ConversationHistory.EMPTY);

        assertThat(result.queries()).containsExactly("patients coded E11.9 with a recent visit");
        assertThat(result.reason()).isEqualTo("no conversation history; expansion skipped: identifier-like token");
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void aShortFollowUpIsRewrittenButNotExpanded() {
        ScriptedChatModel model = new ScriptedChatModel(completed("{\"standalone\": \"Ana Ruiz allergies\", \"alternatives\": []}"));

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite("and allergies?", HISTORY);

        assertThat(result.queries()).containsExactly("Ana Ruiz allergies");
        assertThat(result.reason()).endsWith("expansion skipped: ≤3 words");
        assertThat(model.requests().get(0).messages().get(0).content()).contains("always an empty list");
    }

    @Test
    void expansionIsDroppedWhenTheRewriteCarriesAnIdentifier() {
        ScriptedChatModel model = new ScriptedChatModel(completed("{\"standalone\": \"what medication was MRN-000001 given"
                + " for hypertension\", \"alternatives\": [\"MRN-000001 blood pressure drugs\", \"x y z\"]}"));

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite(FOLLOW_UP, HISTORY);

        assertThat(result.queries()).containsExactly("what medication was MRN-000001 given for hypertension");
        assertThat(result.reason()).endsWith("expansion skipped after rewrite: identifier-like token");
    }

    @Test
    void aRewriteThatLosesAnIdentifierIsRejected() {
        ScriptedChatModel model = new ScriptedChatModel(completed("{\"standalone\": \"what was Ana given for diabetes\"}"));

        RewriteResult result = new LlmQueryRewriter(model, settings).rewrite("what was she given for E11.9", HISTORY);

        assertThat(result.queries()).containsExactly("what was she given for E11.9");
        assertThat(result.reason()).isEqualTo("rewrite dropped 1 exact term(s) of the question: question searched as asked");
    }

    @Test
    void failuresAndMalformedOutputFallBackToTheQuestion() {
        ScriptedChatModel model = new ScriptedChatModel(
                failed(LlmFailureKind.TIMEOUT, "deadline of 10000 ms exceeded"),
                completed("Sure! Here is the rewritten question: what was Ana given"),
                completed("{\"standalone\": 42}"),
                completed("{\"standalone\": \"   \", \"alternatives\": []}"));
        LlmQueryRewriter rewriter = new LlmQueryRewriter(model, settings);

        RewriteResult timeout = rewriter.rewrite(FOLLOW_UP, HISTORY);
        RewriteResult prose = rewriter.rewrite(FOLLOW_UP, HISTORY);
        RewriteResult wrongType = rewriter.rewrite(FOLLOW_UP, HISTORY);
        RewriteResult blank = rewriter.rewrite(FOLLOW_UP, HISTORY);

        for (RewriteResult r : List.of(timeout, prose, wrongType, blank)) {
            assertThat(r.queries()).containsExactly(FOLLOW_UP);
            assertThat(r.rewritten()).isFalse();
            assertThat(r.expanded()).isFalse();
        }
        assertThat(timeout.reason()).isEqualTo("rewrite call failed (timeout: deadline of 10000 ms exceeded): question searched as asked");
        assertThat(prose.reason()).startsWith("rewrite output malformed (no JSON object");
        assertThat(wrongType.reason()).startsWith("rewrite output malformed");
        assertThat(blank.reason()).startsWith("rewrite output malformed (no usable standalone question)");
    }

    @Test
    void aStalledServerFallsBackWithinTheRewriteDeadline() {
        try (OpenAiCompatibleTestServer server = OpenAiCompatibleTestServer.start()) {
            server.respondWith(OpenAiCompatibleTestServer.stall());
            OpenAiCompatibleChatClient client = new OpenAiCompatibleChatClient(LlmEndpoint.of(server.baseUrl(), "m"));
            RewriteSettings quick = new RewriteSettings(8, 3, Duration.ofMillis(300), 600, 500);

            long t0 = System.nanoTime();
            RewriteResult result = new LlmQueryRewriter(client, quick).rewrite(FOLLOW_UP, HISTORY);

            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
            assertThat(result.queries()).containsExactly(FOLLOW_UP);
            // the request's own timeout and the deadline timer race; either way the reason says the deadline passed
            assertThat(result.reason()).startsWith("rewrite call failed (timeout: ").contains("deadline");
        }
    }

    @Test
    void malformedJsonFromAServerFallsBack() {
        try (OpenAiCompatibleTestServer server = OpenAiCompatibleTestServer.start()) {
            server.respondWith(OpenAiCompatibleTestServer.malformedJson());
            OpenAiCompatibleChatClient client = new OpenAiCompatibleChatClient(LlmEndpoint.of(server.baseUrl(), "m"));

            RewriteResult result = new LlmQueryRewriter(client, settings).rewrite(FOLLOW_UP, HISTORY);

            assertThat(result.queries()).containsExactly(FOLLOW_UP);
            assertThat(result.reason()).startsWith("rewrite call failed (malformed: response is not JSON)");
        }
    }

    @Test
    void withoutAnEndpointNothingIsRewrittenAndTheAuditSaysWhy() {
        RewriteResult result = new NoEndpointRewriter().rewrite(FOLLOW_UP, HISTORY);

        assertThat(result.queries()).containsExactly(FOLLOW_UP);
        assertThat(result.reason()).contains("no LLM endpoint configured");
    }
}
