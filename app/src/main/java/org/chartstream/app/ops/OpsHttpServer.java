package org.chartstream.app.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The operations endpoint on the JDK's HTTP server: {@code /metrics} (Prometheus text), {@code /health} (the
 * process is alive) and {@code /ready} (200 only when every readiness check passes, else 503 naming the failing ones).
 */
final class OpsHttpServer implements AutoCloseable {
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private final HttpServer server;
    private final ExecutorService executor;

    private OpsHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static OpsHttpServer start(String host, int port, Supplier<String> metrics, Supplier<Readiness.Report> readiness) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        long started = System.currentTimeMillis();
        server.createContext("/metrics", exchange -> respond(exchange, 200, PROMETHEUS_TEXT, metrics));
        server.createContext("/health", exchange -> respond(exchange, 200, "application/json",
                () -> "{\"status\":\"up\",\"uptime_s\":" + (System.currentTimeMillis() - started) / 1000 + "}"));
        server.createContext("/ready", exchange -> {
            Readiness.Report report = readiness.get();
            respond(exchange, report.ready() ? 200 : 503, "application/json", report::json);
        });
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ops-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        return new OpsHttpServer(server, executor);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String contentType, Supplier<String> body) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(exchange.getHttpContext().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] bytes;
            int code = status;
            try {
                bytes = body.get().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                code = 500;
                bytes = ("{\"error\":\"" + e.getClass().getSimpleName() + "\"}").getBytes(StandardCharsets.UTF_8);
                contentType = "application/json";
            }
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            if (method.equals("HEAD")) {
                exchange.sendResponseHeaders(code, -1);
                return;
            }
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
