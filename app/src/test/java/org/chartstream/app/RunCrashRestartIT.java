package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.chartstream.embedded.ChildJvmClassPath;
import org.chartstream.embedded.LiveProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code chartstream run} killed with SIGKILL and started again, as a user would: the embedded PostgreSQL dies with
 * the killed JVM (its watchdog); where it does not (the watchdog killed too), the next {@code run} stops the server
 * left on its data directory and starts. Meanwhile {@code ask} and {@code status} fail within 5 s naming the address
 * of the dead run, and each start rewrites {@code runtime.properties}, after which {@code ask} is answered.
 */
class RunCrashRestartIT {
    private static final String WATCHDOG = "chartstream-pg-watchdog";
    private final Path work = Path.of("target", "it", "RunCrashRestartIT-" + System.nanoTime()).toAbsolutePath();
    private final Path runtimeFile = work.resolve("run").resolve("runtime.properties");
    private final Path pidFile = work.resolve("run").resolve("postgres").resolve("data").resolve("postmaster.pid");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Path config;
    private int opsPort;
    private Process child;

    @AfterEach
    void cleanUp() throws Exception {
        if (child != null && child.isAlive()) {
            child.destroy(); // SIGTERM: the run stops its pipeline and database
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        postmasterPid().flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void aKilledRunLeavesNothingThatStopsTheNextOneAndCommandsSayAtOnceThatNobodyAnswers() throws Exception {
        Files.createDirectories(work);
        try (ServerSocket s = new ServerSocket(0)) {
            opsPort = s.getLocalPort();
        }
        config = Files.writeString(work.resolve("chartstream.properties"), "data.dir=" + work + "\nops.http.port=" + opsPort
                + "\ndataset.patients=2\n");

        // 1. kill -9 of run: the database stops with it
        startRun(1);
        Properties first = runtimeProperties().orElseThrow();
        String deadBroker = first.getProperty("bootstrap.servers");
        long postmaster = postmasterPid().orElseThrow();
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(awaitGone(postmaster, Duration.ofSeconds(30))).as("the embedded PostgreSQL stops when its JVM is killed").isTrue();

        // 2. the dead run's file is still there; ask and status say at once that nobody answers at its address
        assertThat(runtimeProperties()).as("a killed run cannot remove its runtime file").isPresent();
        InProcessCli ask = InProcessCli.run("ask", "Which conditions are recorded?", "--config", config.toString());
        assertThat(ask.code()).isEqualTo(1);
        assertThat(ask.seconds()).isLessThan(5.0);
        assertThat(ask.err()).contains("no pipeline answers at " + deadBroker).contains(runtimeFile.toString());
        InProcessCli status = InProcessCli.run("status", "--config", config.toString());
        assertThat(status.code()).isEqualTo(1);
        assertThat(status.seconds()).isLessThan(5.0);
        assertThat(status.err()).contains("no pipeline answers at " + deadBroker);
        for (String command : List.of("ask", "status")) {
            List<String> args = new ArrayList<>(command.equals("ask") ? List.of("ask", "Which conditions are recorded?") : List.of("status"));
            args.addAll(List.of("--bootstrap", deadBroker, "--config", config.toString()));
            InProcessCli explicit = InProcessCli.run(args.toArray(String[]::new));
            assertThat(explicit.code()).as("%s --bootstrap of the dead broker", command).isEqualTo(1);
            assertThat(explicit.seconds()).as("%s gives up within 5 s", command).isLessThan(5.0);
            assertThat(explicit.err()).contains("no pipeline answers at " + deadBroker + ": no Kafka broker there responded");
        }

        // 3. the next run starts, rewrites the runtime file, and answers
        startRun(2);
        Properties second = runtimeProperties().orElseThrow();
        assertThat(second.getProperty("pid")).isNotEqualTo(first.getProperty("pid"));
        InProcessCli answered = InProcessCli.run("ask", "Which conditions are recorded?", "--config", config.toString(), "--timeout", "90");
        assertThat(answered.code()).as("ask against the restarted run; stderr: %s", answered.err()).isZero();
        assertThat(answered.out()).isNotBlank();
        assertThat(InProcessCli.run("status", "--config", config.toString()).code()).isZero();

        // 4. without its watchdog the database outlives the killed run; the next run stops it and starts
        long left = postmasterPid().orElseThrow();
        List<ProcessHandle> watchdogs = child.descendants()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(WATCHDOG)).orElse(false)).toList();
        assertThat(watchdogs).hasSize(1);
        watchdogs.forEach(ProcessHandle::destroyForcibly);
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(2000);
        assertThat(LiveProcess.running(left)).as("the left database still runs").isTrue();
        startRun(3);
        assertThat(LiveProcess.running(left)).as("the left database was stopped").isFalse();
        assertThat(postmasterPid()).isPresent().get().isNotEqualTo(left);
        assertThat(InProcessCli.run("ask", "Which conditions are recorded?", "--config", config.toString(), "--timeout", "90").code()).isZero();
    }

    /** Starts {@code chartstream run} in a JVM of its own and waits until {@code /ready} is 200 and its runtime file is written. */
    private void startRun(int n) throws Exception {
        Path log = work.resolve("run-" + n + ".log");
        child = new ProcessBuilder(ChildJvmClassPath.javaCommand(List.of("-Xmx1500m"), Main.class.getName(), "run", "--config",
                config.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.MINUTES.toNanos(6);
        while (!(ready() && runtimeProperties().map(p -> isAlive(p.getProperty("pid"))).orElse(false))) {
            assertThat(child.isAlive()).as("run %d is running (see %s)", n, log).isTrue();
            assertThat(System.nanoTime()).as("run %d ready within 6 min (see %s)", n, log).isLessThan(deadline);
            Thread.sleep(250);
        }
        System.out.printf("[RunCrashRestartIT] run %d ready in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
    }

    private boolean ready() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + "/ready"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean isAlive(String pid) {
        return pid != null && ProcessHandle.of(Long.parseLong(pid.trim())).map(ProcessHandle::isAlive).orElse(false);
    }

    private Optional<Properties> runtimeProperties() throws java.io.IOException {
        if (!Files.exists(runtimeFile)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(runtimeFile)) {
            p.load(r);
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(p);
    }

    private Optional<Long> postmasterPid() {
        try {
            return Optional.of(Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim()));
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean awaitGone(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (LiveProcess.running(pid)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
