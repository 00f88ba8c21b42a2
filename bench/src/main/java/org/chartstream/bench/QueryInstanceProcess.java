package org.chartstream.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.models.OnnxSessions;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * One query instance: {@code chartstream run --role query} in a JVM of its own, started from this one, asked over its
 * operations endpoint whether it is ready and how many requests it has in flight, and stopped with SIGKILL (no close,
 * no flush, no commit) or SIGTERM.
 */
public final class QueryInstanceProcess implements AutoCloseable {
    /** The command of a child JVM that runs the {@code chartstream} main class with the given arguments. */
    @FunctionalInterface
    public interface Launcher {
        List<String> command(List<String> mainArguments);
    }

    private static final Pattern RESUMED = Pattern.compile("resuming (\\d+) requests that were pending before a restart");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String name;
    private final Process process;
    private final int opsPort;
    private final Path log;

    private QueryInstanceProcess(String name, Process process, int opsPort, Path log) {
        this.name = name;
        this.process = process;
        this.opsPort = opsPort;
        this.log = log;
    }

    /**
     * Starts {@code run --role query} with {@code configuration} as its configuration file (written to
     * {@code configFile}); its output goes to {@code log}. The instance's own keys (its data directory and port above
     * all) are not overridden by this JVM's {@code CHARTSTREAM_*} environment variables, which the child inherits.
     */
    static QueryInstanceProcess start(Launcher launcher, String name, Map<String, String> configuration, Path configFile, Path log)
            throws IOException {
        return start(launcher, name, "query", configuration, configFile, log);
    }

    /** The same for {@code run --role <role>} (an ingest instance of {@code bench scaleout} has no ready endpoint to ask). */
    static QueryInstanceProcess start(Launcher launcher, String name, String role, Map<String, String> configuration, Path configFile,
                                      Path log) throws IOException {
        StringBuilder text = new StringBuilder();
        configuration.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.createDirectories(configFile.getParent());
        Files.writeString(configFile, text.toString());
        ProcessBuilder pb = new ProcessBuilder(launcher.command(List.of("run", "--role", role, "--config", configFile.toString())))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        configuration.keySet().forEach(key -> pb.environment().remove(ChartstreamConfig.envName(key)));
        pb.environment().put(OnnxSessions.TELEMETRY_SWITCH, "1");
        return new QueryInstanceProcess(name, pb.start(), Integer.parseInt(configuration.getOrDefault("ops.http.port", "0")), log);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether its {@code /ready} answers 200 (store, indexes, models, pipeline, admission). */
    boolean ready() {
        return get("/ready").map(r -> r.statusCode() == 200).orElse(false);
    }

    /** Requests in flight on it now ({@code chartstream_admission_in_flight}), or -1 when it does not say. */
    int inFlight() {
        return (int) gauge("chartstream_admission_in_flight");
    }

    /** Ms since its oldest request in flight was admitted ({@code chartstream_admission_oldest_in_flight_ms}), or -1. */
    long oldestInFlightMs() {
        return (long) gauge("chartstream_admission_oldest_in_flight_ms");
    }

    private double gauge(String name) {
        return get("/metrics").flatMap(r -> r.body().lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst()).orElse(-1.0);
    }

    /** Requests its tasks took over from the pending store (the query topology logs each task's count at its start). */
    int resumedFromPending() throws IOException {
        int total = 0;
        Matcher m = RESUMED.matcher(Files.readString(log));
        while (m.find()) {
            total += Integer.parseInt(m.group(1));
        }
        return total;
    }

    /** SIGKILL: the instance gets no chance to close, flush or commit anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private java.util.Optional<HttpResponse<String>> get(String path) {
        try {
            return java.util.Optional.of(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + path))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /** SIGTERM (the run closes its pipeline), SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        terminate(process);
    }

    /** SIGTERM, then SIGKILL if {@code process} has not ended after 30 s; returns once it has ended (or 30 s more). */
    static void terminate(Process process) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
