package org.chartstream.retrieval.generate;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.llm.ChatRequest;
import org.chartstream.core.llm.ChatResult;
import org.chartstream.retrieval.context.ContextPassage;

/**
 * Generation through the local model: the {@link GroundedPrompt}, streamed token by token to the caller, then the
 * citations of the whole answer checked against the passages. Any endpoint failure (down, timeout, HTTP error,
 * malformed output) is {@link GenerationResult.Outcome#UNAVAILABLE}: there is no fallback to another model or to an
 * extractive answer when a model is configured.
 */
public final class LlmGroundedGenerator implements Generator {
    private final ChatModel model;
    private final GenerationSettings settings;

    public LlmGroundedGenerator(ChatModel model, GenerationSettings settings) {
        this.model = Objects.requireNonNull(model, "model");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public String name() {
        return model.modelId();
    }

    @Override
    public GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(onToken, "onToken");
        if (passages.isEmpty()) {
            return new GenerationResult(GenerationResult.Outcome.REFUSED, GroundedPrompt.REFUSAL,
                    CitationMarkers.check("", 0), name(), "no passages to answer from", null, 0);
        }
        ChatRequest request = new ChatRequest(GroundedPrompt.messages(question, passages), settings.temperature(),
                settings.maxAnswerTokens(), settings.deadline());
        int[] streamed = {0};
        ChatResult result = model.stream(request, piece -> {
            streamed[0]++;
            onToken.accept(piece);
        });
        if (result instanceof ChatResult.Failed failed) {
            return new GenerationResult(GenerationResult.Outcome.UNAVAILABLE, "", CitationMarkers.check("", 0), name(),
                    "generation model unavailable (" + failed.describe() + ")", failed.kind(), failed.tokensDelivered());
        }
        ChatResult.Completed completed = (ChatResult.Completed) result;
        String answer = completed.content().strip();
        CitationMarkers.Report citations = CitationMarkers.check(answer, passages.size());
        if (GroundedPrompt.isRefusal(answer)) {
            return new GenerationResult(GenerationResult.Outcome.REFUSED, answer, citations, name(),
                    "the model found no support in the passages", null, streamed[0]);
        }
        String detail = citations.flagged() ? "answer cites passages that do not exist: " + citations.outOfRange()
                : citations.uncited() ? "answer cites no passage" : "answer cites passages " + citations.cited();
        return new GenerationResult(GenerationResult.Outcome.ANSWERED, answer, citations, name(), detail, null, streamed[0]);
    }
}
