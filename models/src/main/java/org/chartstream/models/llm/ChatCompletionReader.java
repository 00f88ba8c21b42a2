package org.chartstream.models.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.function.Consumer;
import org.chartstream.core.llm.ChatResult;
import org.chartstream.core.llm.LlmFailureKind;

/**
 * Reads a chat-completions response off its {@link ChatExchange}: one JSON completion, or server-sent events whose
 * {@code data:} lines each carry one JSON chunk until {@code data: [DONE]}; each piece of the answer handed to the
 * caller as it arrives.
 */
final class ChatCompletionReader {
    /** Larger responses are treated as malformed: no answer this pipeline asks for comes near it. */
    static final int MAX_RESPONSE_CHARS = 4 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ChatCompletionReader() {
    }

    static ChatResult.Completed readWhole(ChatExchange exchange, Answer answer, int status, long start) throws ChatCallFailure {
        StringBuilder body = new StringBuilder();
        for (String line = exchange.nextLine(); line != null; line = exchange.nextLine()) {
            body.append(line).append('\n');
            if (body.length() > MAX_RESPONSE_CHARS) {
                throw new ChatCallFailure(LlmFailureKind.MALFORMED, "response larger than " + MAX_RESPONSE_CHARS + " characters", status);
            }
        }
        JsonNode root = parse(body.toString(), "response is not JSON", status);
        if (root.has("error") && !root.has("choices")) {
            throw new ChatCallFailure(LlmFailureKind.HTTP_ERROR, "server reported an error object", status);
        }
        JsonNode choice = root.path("choices").path(0);
        JsonNode content = choice.path("message").get("content");
        if (content == null || !content.isTextual()) {
            throw new ChatCallFailure(LlmFailureKind.MALFORMED, "response has no choices[0].message.content", status);
        }
        answer.deliver(content.asText());
        return new ChatResult.Completed(answer.text.toString(), textOrNull(choice.get("finish_reason")),
                textOrNull(root.get("model")), since(start));
    }

    static ChatResult.Completed readStream(ChatExchange exchange, Answer answer, int status, long start) throws ChatCallFailure {
        String finishReason = null;
        String model = null;
        boolean done = false;
        long chars = 0;
        for (String line = exchange.nextLine(); line != null; line = exchange.nextLine()) {
            chars += line.length();
            if (chars > MAX_RESPONSE_CHARS) {
                throw new ChatCallFailure(LlmFailureKind.MALFORMED, "stream longer than " + MAX_RESPONSE_CHARS + " characters", status);
            }
            // one JSON chunk per data line: OpenAI-compatible servers never split a chunk over several lines
            if (!line.startsWith("data:")) {
                continue;
            }
            String data = line.substring("data:".length()).strip();
            if (data.equals("[DONE]")) {
                done = true;
                break;
            }
            JsonNode chunk = parse(data, "stream chunk is not JSON", status);
            if (chunk.has("error")) {
                throw new ChatCallFailure(LlmFailureKind.HTTP_ERROR, "server reported an error in the stream", status);
            }
            if (chunk.hasNonNull("model")) {
                model = chunk.get("model").asText();
            }
            JsonNode choice = chunk.path("choices").path(0);
            JsonNode content = choice.path("delta").get("content");
            if (content != null && !content.isNull() && !content.isTextual()) {
                throw new ChatCallFailure(LlmFailureKind.MALFORMED, "stream chunk has a non-text delta.content", status);
            }
            if (content != null && content.isTextual() && !content.asText().isEmpty()) {
                answer.deliver(content.asText());
            }
            if (choice.hasNonNull("finish_reason")) {
                finishReason = choice.get("finish_reason").asText();
            }
        }
        if (!done && finishReason == null) {
            throw new ChatCallFailure(LlmFailureKind.MALFORMED, "stream ended before [DONE] or a finish_reason", status);
        }
        return new ChatResult.Completed(answer.text.toString(), finishReason, model, since(start));
    }

    private static JsonNode parse(String text, String problem, int status) throws ChatCallFailure {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || !node.isObject()) {
                throw new ChatCallFailure(LlmFailureKind.MALFORMED, problem, status);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ChatCallFailure(LlmFailureKind.MALFORMED, problem, status);
        }
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** The answer so far: what the caller has been handed. */
    static final class Answer {
        private final Consumer<String> onToken;
        final StringBuilder text = new StringBuilder();
        int pieces;

        Answer(Consumer<String> onToken) {
            this.onToken = onToken;
        }

        void deliver(String piece) {
            text.append(piece);
            pieces++;
            onToken.accept(piece);
        }
    }
}
