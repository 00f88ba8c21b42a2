package org.chartstream.models.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.chartstream.core.llm.ChatMessage;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.llm.ChatRequest;
import org.chartstream.core.llm.ChatResult;
import org.chartstream.core.llm.LlmFailureKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatModel} speaking the OpenAI chat-completions protocol to one local server with {@code java.net.http}.
 *
 * <p>Only {@link LlmEndpoint#chatCompletionsUrl()} is ever contacted: redirects are not followed (a 3xx is an
 * {@link LlmFailureKind#HTTP_ERROR}) and no proxy is used, so a JVM-wide proxy setting cannot route requests
 * elsewhere. There is no retry and no other endpoint to fall back to.
 *
 * <p>Streaming reads server-sent events: each {@code data:} line carries one JSON chunk whose
 * {@code choices[0].delta.content} is the next piece of the answer, and {@code data: [DONE]} ends the stream. A server
 * that ignores {@code "stream": true} and answers with one JSON completion is accepted too (one piece).
 *
 * <p>Time limits: the connect timeout; the read timeout as the longest silence before the response starts and between
 * chunks (a stalled server); and the call's deadline over everything. The calling thread waits on the response's
 * events with those limits, so a call returns within its deadline whatever the server does.
 *
 * <p>Thread-safe. Logs carry the model, timings and failure kinds, never message or answer text.
 */
public final class OpenAiCompatibleChatClient implements ChatModel {
    private static final Logger LOG = LoggerFactory.getLogger(OpenAiCompatibleChatClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmEndpoint endpoint;
    private final HttpClient http;

    public OpenAiCompatibleChatClient(LlmEndpoint endpoint) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        // HTTP/1.1: local servers (llama.cpp, Ollama) do not speak h2c, and an upgrade attempt only adds a round trip
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(endpoint.connectTimeout()).followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY).build();
    }

    public LlmEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public String modelId() {
        return endpoint.model();
    }

    @Override
    public ChatResult complete(ChatRequest request) {
        return call(request, false, piece -> { });
    }

    @Override
    public ChatResult stream(ChatRequest request, Consumer<String> onToken) {
        return call(request, true, Objects.requireNonNull(onToken, "onToken"));
    }

    private ChatResult call(ChatRequest request, boolean stream, Consumer<String> onToken) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        Duration budget = request.deadline() != null && request.deadline().compareTo(endpoint.totalDeadline()) < 0
                ? request.deadline() : endpoint.totalDeadline();
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint.chatCompletionsUrl()).timeout(budget)
                .header("Content-Type", "application/json")
                .header("Accept", stream ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(requestBody(request, stream)));
        if (endpoint.apiKey() != null) {
            builder.header("Authorization", "Bearer " + endpoint.apiKey());
        }
        ChatExchange exchange = new ChatExchange(endpoint, start + budget.toNanos(), budget);
        CompletableFuture<HttpResponse<Void>> response = http.sendAsync(builder.build(), exchange);
        response.whenComplete((r, error) -> {
            if (error != null) {
                exchange.fail(error);
            }
        });
        ChatCompletionReader.Answer answer = new ChatCompletionReader.Answer(onToken);
        try {
            ChatExchange.Status status = exchange.awaitStatus();
            if (status.code() / 100 != 2) {
                throw new ChatCallFailure(LlmFailureKind.HTTP_ERROR, "HTTP " + status.code(), status.code());
            }
            boolean whole = !stream || status.contentType().toLowerCase(Locale.ROOT).startsWith("application/json");
            ChatResult.Completed completed = whole ? ChatCompletionReader.readWhole(exchange, answer, status.code(), start)
                    : ChatCompletionReader.readStream(exchange, answer, status.code(), start);
            LOG.debug("chat call to model {} completed in {} ms ({} chars, finish={})", endpoint.model(),
                    completed.elapsed().toMillis(), completed.content().length(), completed.finishReason());
            return completed;
        } catch (ChatCallFailure f) {
            ChatResult.Failed failed = new ChatResult.Failed(f.kind, f.getMessage(), f.httpStatus, answer.pieces,
                    ChatCompletionReader.since(start));
            LOG.warn("chat call to model {} failed after {} ms: {}", endpoint.model(), failed.elapsed().toMillis(),
                    failed.describe());
            return failed;
        } finally {
            exchange.cancel();
            response.cancel(true);
        }
    }

    private byte[] requestBody(ChatRequest request, boolean stream) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", endpoint.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : request.messages()) {
            messages.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        body.put("stream", stream);
        body.put("temperature", request.temperature());
        if (request.maxTokens() > 0) {
            body.put("max_tokens", request.maxTokens());
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a chat request", e);
        }
    }
}
