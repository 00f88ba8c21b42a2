package org.chartstream.models.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
    /** Larger responses are treated as malformed: no answer this pipeline asks for comes near it. */
    static final int MAX_RESPONSE_CHARS = 4 << 20;

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
        Exchange exchange = new Exchange(start + budget.toNanos(), budget);
        CompletableFuture<HttpResponse<Void>> response = http.sendAsync(builder.build(), exchange);
        response.whenComplete((r, error) -> {
            if (error != null) {
                exchange.events.add(new Failure(error));
            }
        });
        Answer answer = new Answer(onToken);
        try {
            Status status = exchange.awaitStatus();
            if (status.code() / 100 != 2) {
                throw new CallFailure(LlmFailureKind.HTTP_ERROR, "HTTP " + status.code(), status.code());
            }
            boolean whole = !stream || status.contentType().toLowerCase(Locale.ROOT).startsWith("application/json");
            ChatResult.Completed completed = whole ? readWhole(exchange, answer, status.code(), start)
                    : readStream(exchange, answer, status.code(), start);
            LOG.debug("chat call to model {} completed in {} ms ({} chars, finish={})", endpoint.model(),
                    completed.elapsed().toMillis(), completed.content().length(), completed.finishReason());
            return completed;
        } catch (CallFailure f) {
            ChatResult.Failed failed = new ChatResult.Failed(f.kind, f.getMessage(), f.httpStatus, answer.pieces, since(start));
            LOG.warn("chat call to model {} failed after {} ms: {}", endpoint.model(), failed.elapsed().toMillis(),
                    failed.describe());
            return failed;
        } finally {
            exchange.cancel();
            response.cancel(true);
        }
    }

    private ChatResult.Completed readWhole(Exchange exchange, Answer answer, int status, long start) throws CallFailure {
        StringBuilder body = new StringBuilder();
        for (String line = exchange.nextLine(); line != null; line = exchange.nextLine()) {
            body.append(line).append('\n');
            if (body.length() > MAX_RESPONSE_CHARS) {
                throw new CallFailure(LlmFailureKind.MALFORMED, "response larger than " + MAX_RESPONSE_CHARS + " characters", status);
            }
        }
        JsonNode root = parse(body.toString(), "response is not JSON", status);
        if (root.has("error") && !root.has("choices")) {
            throw new CallFailure(LlmFailureKind.HTTP_ERROR, "server reported an error object", status);
        }
        JsonNode choice = root.path("choices").path(0);
        JsonNode content = choice.path("message").get("content");
        if (content == null || !content.isTextual()) {
            throw new CallFailure(LlmFailureKind.MALFORMED, "response has no choices[0].message.content", status);
        }
        answer.deliver(content.asText());
        return new ChatResult.Completed(answer.text.toString(), textOrNull(choice.get("finish_reason")),
                textOrNull(root.get("model")), since(start));
    }

    private ChatResult.Completed readStream(Exchange exchange, Answer answer, int status, long start) throws CallFailure {
        String finishReason = null;
        String model = null;
        boolean done = false;
        long chars = 0;
        for (String line = exchange.nextLine(); line != null; line = exchange.nextLine()) {
            chars += line.length();
            if (chars > MAX_RESPONSE_CHARS) {
                throw new CallFailure(LlmFailureKind.MALFORMED, "stream longer than " + MAX_RESPONSE_CHARS + " characters", status);
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
                throw new CallFailure(LlmFailureKind.HTTP_ERROR, "server reported an error in the stream", status);
            }
            if (chunk.hasNonNull("model")) {
                model = chunk.get("model").asText();
            }
            JsonNode choice = chunk.path("choices").path(0);
            JsonNode content = choice.path("delta").get("content");
            if (content != null && !content.isNull() && !content.isTextual()) {
                throw new CallFailure(LlmFailureKind.MALFORMED, "stream chunk has a non-text delta.content", status);
            }
            if (content != null && content.isTextual() && !content.asText().isEmpty()) {
                answer.deliver(content.asText());
            }
            if (choice.hasNonNull("finish_reason")) {
                finishReason = choice.get("finish_reason").asText();
            }
        }
        if (!done && finishReason == null) {
            throw new CallFailure(LlmFailureKind.MALFORMED, "stream ended before [DONE] or a finish_reason", status);
        }
        return new ChatResult.Completed(answer.text.toString(), finishReason, model, since(start));
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

    private static JsonNode parse(String text, String problem, int status) throws CallFailure {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || !node.isObject()) {
                throw new CallFailure(LlmFailureKind.MALFORMED, problem, status);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new CallFailure(LlmFailureKind.MALFORMED, problem, status);
        }
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static CallFailure deadlineExceeded(Duration budget) {
        return new CallFailure(LlmFailureKind.TIMEOUT, "deadline of " + budget.toMillis() + " ms exceeded", 0);
    }

    /** @param budget the request's deadline, which is also the HTTP request's timeout */
    private static CallFailure classify(Throwable error, boolean responseStarted, Duration connectTimeout, Duration budget) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return new CallFailure(LlmFailureKind.UNAVAILABLE, "connect timed out after " + connectTimeout.toMillis() + " ms", 0);
        }
        if (cause instanceof HttpTimeoutException) {
            // the same failure as the exchange's own deadline check, whichever of the two notices it first
            return deadlineExceeded(budget);
        }
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                return new CallFailure(LlmFailureKind.UNAVAILABLE, "connection refused", 0);
            }
        }
        String what = cause.getClass().getSimpleName();
        if (responseStarted) {
            return new CallFailure(LlmFailureKind.UNAVAILABLE, "connection lost mid-response (" + what + ")", 0);
        }
        return new CallFailure(LlmFailureKind.UNAVAILABLE, cause instanceof IOException
                ? "connection failed (" + what + ")" : "request failed (" + what + ")", 0);
    }

    /** The answer so far: what the caller has been handed. */
    private static final class Answer {
        private final Consumer<String> onToken;
        private final StringBuilder text = new StringBuilder();
        private int pieces;

        Answer(Consumer<String> onToken) {
            this.onToken = onToken;
        }

        void deliver(String piece) {
            text.append(piece);
            pieces++;
            onToken.accept(piece);
        }
    }

    private record Status(int code, String contentType) {
    }

    private record Line(String text) {
    }

    private record Failure(Throwable error) {
    }

    private static final Object END = new Object();

    /**
     * One HTTP exchange seen as a queue of events (status, lines, end, failure) filled by the HTTP client's threads
     * and read by the calling thread under the read timeout and the deadline.
     */
    private final class Exchange implements HttpResponse.BodyHandler<Void>, Flow.Subscriber<String> {
        private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        private final long deadlineNanos;
        private final Duration budget;
        private volatile Flow.Subscription subscription;
        private volatile boolean cancelled;
        private boolean responseStarted;

        Exchange(long deadlineNanos, Duration budget) {
            this.deadlineNanos = deadlineNanos;
            this.budget = budget;
        }

        @Override
        public HttpResponse.BodySubscriber<Void> apply(HttpResponse.ResponseInfo info) {
            events.add(new Status(info.statusCode(), info.headers().firstValue("Content-Type").orElse("")));
            return HttpResponse.BodySubscribers.fromLineSubscriber(this);
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (cancelled) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(String line) {
            events.add(new Line(line));
        }

        @Override
        public void onError(Throwable error) {
            events.add(new Failure(error));
        }

        @Override
        public void onComplete() {
            events.add(END);
        }

        Status awaitStatus() throws CallFailure {
            Object event = next();
            if (event instanceof Status status) {
                responseStarted = true;
                return status;
            }
            if (event instanceof Failure failure) {
                throw classify(failure.error(), false, endpoint.connectTimeout(), budget);
            }
            throw new CallFailure(LlmFailureKind.MALFORMED, "response body before its status", 0);
        }

        /** The next line of the body, or {@code null} at its end. */
        String nextLine() throws CallFailure {
            Object event = next();
            if (event instanceof Line line) {
                return line.text();
            }
            if (event == END) {
                return null;
            }
            if (event instanceof Failure failure) {
                throw classify(failure.error(), responseStarted, endpoint.connectTimeout(), budget);
            }
            return nextLine();
        }

        private Object next() throws CallFailure {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                throw deadlineExceeded(budget);
            }
            long readTimeout = endpoint.readTimeout().toNanos();
            try {
                Object event = events.poll(Math.min(remaining, readTimeout), TimeUnit.NANOSECONDS);
                if (event != null) {
                    return event;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallFailure(LlmFailureKind.TIMEOUT, "interrupted while waiting for the server", 0);
            }
            if (readTimeout < remaining) {
                throw new CallFailure(LlmFailureKind.TIMEOUT, (responseStarted ? "stalled: no data for " : "no response within ")
                        + endpoint.readTimeout().toMillis() + " ms (read timeout)", 0);
            }
            throw deadlineExceeded(budget);
        }

        void cancel() {
            cancelled = true;
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
    }

    /** A failed call on its way to becoming a {@link ChatResult.Failed}. */
    private static final class CallFailure extends Exception {
        private final LlmFailureKind kind;
        private final int httpStatus;

        CallFailure(LlmFailureKind kind, String detail, int httpStatus) {
            super(detail, null, false, false);
            this.kind = kind;
            this.httpStatus = httpStatus;
        }
    }
}
