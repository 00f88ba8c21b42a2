package org.chartstream.models.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A test double for a local LLM server: an in-process {@link HttpServer} on 127.0.0.1 speaking the OpenAI
 * chat-completions protocol ({@code POST /v1/chat/completions}, JSON or server-sent events). No real LLM server can
 * run on the build machines, so the client and the stages that use it are tested against this.
 *
 * <p>Each request gets the next scripted {@link Behaviour}; the last one keeps answering after the script runs out.
 * Behaviours: answer normally (as JSON, or as a token stream when the request asks to stream), stall (never answer,
 * or stall after some tokens), malformed JSON, a broken stream, an HTTP error status, a redirect. {@link #close()}
 * takes the server down, and {@link #refusedBaseUrl()} names a port with nothing listening. Every request is recorded.
 */
public final class OpenAiCompatibleTestServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the server does with one request. */
    @FunctionalInterface
    public interface Behaviour {
        void respond(HttpExchange exchange, JsonNode request, OpenAiCompatibleTestServer server) throws IOException;
    }

    /** One request as received. */
    public record ReceivedRequest(String method, String path, Map<String, List<String>> headers, JsonNode body) {
        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "openai-test-server");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<Behaviour> script = new ConcurrentLinkedQueue<>();
    private final List<ReceivedRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Behaviour last = answer("ok");

    private OpenAiCompatibleTestServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static OpenAiCompatibleTestServer start() {
        try {
            return new OpenAiCompatibleTestServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port>/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** A base URL on a loopback port where nothing listens: connections are refused. */
    public static String refusedBaseUrl() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The behaviours for the next requests, in order; the last one also answers every later request. */
    public OpenAiCompatibleTestServer respondWith(Behaviour... behaviours) {
        script.clear();
        Collections.addAll(script, behaviours);
        return this;
    }

    public List<ReceivedRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Stops listening and releases stalled requests. */
    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    /** Answers {@code content}: one JSON completion, or, for a streaming request, the content word by word. */
    public static Behaviour answer(String content) {
        return (exchange, request, server) -> {
            if (request.path("stream").asBoolean(false)) {
                streamTokens(exchange, words(content), true, true);
            } else {
                sendJson(exchange, 200, completion(content));
            }
        };
    }

    /** Answers one JSON completion even when the request asks to stream, as some servers do. */
    public static Behaviour answerIgnoringStream(String content) {
        return (exchange, request, server) -> sendJson(exchange, 200, completion(content));
    }

    /** Streams exactly these pieces, then a finish_reason and [DONE]. */
    public static Behaviour stream(List<String> pieces) {
        return (exchange, request, server) -> streamTokens(exchange, pieces, true, true);
    }

    /** Streams these pieces, then ends the body without a finish_reason or [DONE]. */
    public static Behaviour streamEndingEarly(List<String> pieces) {
        return (exchange, request, server) -> streamTokens(exchange, pieces, false, false);
    }

    /** Streams these pieces, then sends nothing more until the server closes. */
    public static Behaviour streamThenStall(List<String> pieces) {
        return (exchange, request, server) -> {
            startEventStream(exchange);
            for (String piece : pieces) {
                writeEvent(exchange, chunk(piece, null).toString());
            }
            server.holdUntilClosed();
        };
    }

    /** Accepts the request and never answers. */
    public static Behaviour stall() {
        return (exchange, request, server) -> server.holdUntilClosed();
    }

    /** A 200 whose body is not JSON. */
    public static Behaviour malformedJson() {
        return (exchange, request, server) -> send(exchange, 200, "application/json", "{\"choices\": [ {\"message\": ");
    }

    /** A 200 JSON object that is not a chat completion. */
    public static Behaviour notACompletion() {
        return (exchange, request, server) -> sendJson(exchange, 200, JSON.createObjectNode().put("object", "list"));
    }

    /** A stream whose second event is not JSON. */
    public static Behaviour malformedStream() {
        return (exchange, request, server) -> {
            startEventStream(exchange);
            writeEvent(exchange, chunk("Hyper", null).toString());
            writeEvent(exchange, "{tension");
            writeEvent(exchange, "[DONE]");
            exchange.close();
        };
    }

    /** An HTTP error status with an OpenAI-style error body. */
    public static Behaviour httpError(int status) {
        return (exchange, request, server) -> {
            ObjectNode error = JSON.createObjectNode();
            error.putObject("error").put("message", "model failed").put("type", "server_error");
            sendJson(exchange, status, error);
        };
    }

    /** A 307 to another URL (which a client must not follow). */
    public static Behaviour redirectTo(String location) {
        return (exchange, request, server) -> {
            exchange.getResponseHeaders().add("Location", location);
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        };
    }

    /** Waits {@code delay}, then behaves like {@code then}. */
    public static Behaviour after(Duration delay, Behaviour then) {
        return (exchange, request, server) -> {
            server.sleep(delay);
            then.respond(exchange, request, server);
        };
    }

    private void handle(HttpExchange exchange) throws IOException {
        JsonNode body;
        try {
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            body = bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
        } catch (IOException e) {
            body = JSON.createObjectNode();
        }
        requests.add(new ReceivedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                Map.copyOf(exchange.getRequestHeaders()), body));
        Behaviour next = script.poll();
        if (next != null) {
            last = next;
        } else {
            next = last;
        }
        try {
            next.respond(exchange, body, this);
        } finally {
            exchange.close();
        }
    }

    private void holdUntilClosed() {
        sleep(Duration.ofMinutes(2));
    }

    private void sleep(Duration d) {
        try {
            closed.await(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> words(String content) {
        List<String> pieces = new ArrayList<>();
        for (String piece : content.split("(?<= )")) {
            if (!piece.isEmpty()) {
                pieces.add(piece);
            }
        }
        return pieces;
    }

    private static ObjectNode completion(String content) {
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion")
                .put("model", "test-model");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", content);
        return root;
    }

    private static ObjectNode chunk(String piece, String finishReason) {
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion.chunk")
                .put("model", "test-model");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (piece != null) {
            delta.put("content", piece);
        }
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return root;
    }

    private static void streamTokens(HttpExchange exchange, List<String> pieces, boolean finish, boolean done) throws IOException {
        startEventStream(exchange);
        writeEvent(exchange, chunk("", null).toString());
        for (String piece : pieces) {
            writeEvent(exchange, chunk(piece, null).toString());
        }
        if (finish) {
            writeEvent(exchange, chunk(null, "stop").toString());
        }
        if (done) {
            writeEvent(exchange, "[DONE]");
        }
    }

    private static void startEventStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        exchange.getResponseBody().write(": keep-alive comment\n\n".getBytes(StandardCharsets.UTF_8));
        exchange.getResponseBody().flush();
    }

    private static void writeEvent(HttpExchange exchange, String data) throws IOException {
        OutputStream out = exchange.getResponseBody();
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(exchange, status, "application/json", body.toString());
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
