package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.chartstream.embedded.ChildJvmClassPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code chartstream run} stopped with SIGTERM, as an operator or a service manager stops it, and started again on the
 * same data directory: the stop closes Kafka Streams cleanly (each task commits and records its stores' changelog
 * offsets), says so in the log and exits 0; the next run finds no corrupted task, logs no error, restores no record of
 * a state store from its changelog, and answers. A run killed with SIGKILL, by contrast, is restored from changelogs:
 * the count the runtime logs does see restores.
 */
class RunCleanStopIT {
    private static final Pattern CLEAN_STOP = Pattern.compile("\\[chartstream] pipeline stopped cleanly in \\d+ ms");
    private static final Pattern RESTORED = Pattern.compile("restored (\\d+) records? from its changelog");
    private static final String QUESTION = "Which conditions are recorded?";
    private final Path work = Path.of("target", "it", "RunCleanStopIT-" + System.nanoTime()).toAbsolutePath();
    private final SoftAssertions softly = new SoftAssertions();
    private Path config;
    private Process child;

    @AfterEach
    void stopLeftRun() throws InterruptedException {
        if (child != null && child.isAlive()) {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSigtermStopsKafkaStreamsCleanlyAndTheNextRunRestoresNothingAndLogsNoError() throws Exception {
        Files.createDirectories(work);
        int opsPort;
        try (ServerSocket s = new ServerSocket(0)) {
            opsPort = s.getLocalPort();
        }
        config = Files.writeString(work.resolve("chartstream.properties"), "data.dir=" + work + "\nops.http.port=" + opsPort
                + "\ndataset.patients=2\n");

        Path first = startRunUntilSearchable(1);
        stopWithSigterm(first);

        Path second = startRunUntilSearchable(2);
        assertAnswered();
        String restartLog = Files.readString(second);
        softly.assertThat(restartLog).as("the restart's log (%s)", second).doesNotContain("TaskCorruptedException");
        softly.assertThat(restartLog.lines().filter(l -> l.contains("[ERROR]")).toList()).as("ERROR lines of the restart (%s)", second).isEmpty();
        softly.assertThat(restoredRecords(restartLog)).as("records restored from changelogs on the restart (%s)", second).isZero();

        // the measure sees a restore where there is one: a killed run's stores are rebuilt from their changelogs
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        Path third = startRunUntilSearchable(3);
        assertAnswered();
        softly.assertThat(restoredRecords(Files.readString(third))).as("records restored after a kill (%s)", third).isPositive();
        stopWithSigterm(third);
        softly.assertAll();
    }

    /**
     * A question is answered: the query tasks are running, so their stores are restored; the ingest tasks were running
     * before change data capture started.
     */
    private void assertAnswered() {
        InProcessCli answered = InProcessCli.run("ask", QUESTION, "--config", config.toString(), "--timeout", "90");
        assertThat(answered.code()).as("ask against the restarted run; stderr: %s", answered.err()).isZero();
        assertThat(answered.out()).isNotBlank();
    }

    /** Starts {@code chartstream run} in a JVM of its own; returns its log once it says the pipeline is running. */
    private Path startRunUntilSearchable(int n) throws Exception {
        Path log = work.resolve("run-" + n + ".log");
        child = new ProcessBuilder(ChildJvmClassPath.javaCommand(List.of("-Xmx1500m"), Main.class.getName(), "run", "--config",
                config.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(6);
        while (!(Files.exists(log) && Files.readString(log).contains("[chartstream] pipeline running;"))) {
            assertThat(child.isAlive()).as("run %d is running (see %s)", n, log).isTrue();
            assertThat(System.nanoTime()).as("run %d searchable within 6 min (see %s)", n, log).isLessThan(deadline);
            Thread.sleep(250);
        }
        return log;
    }

    /** {@link Process#destroy()} is SIGTERM: the run must stop in order, say so, and exit 0 well within the bound. */
    private void stopWithSigterm(Path log) throws Exception {
        long t0 = System.nanoTime();
        child.destroy();
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the run exits within 90 s of SIGTERM (see %s)", log).isTrue();
        System.out.printf("[RunCleanStopIT] run stopped %.1f s after SIGTERM%n", (System.nanoTime() - t0) / 1e9);
        softly.assertThat(child.exitValue()).as("exit code after a clean stop (see %s)", log).isZero();
        softly.assertThat(CLEAN_STOP.matcher(Files.readString(log)).find()).as("the log says the stop was clean (see %s)", log).isTrue();
    }

    private static long restoredRecords(String log) {
        long total = 0;
        Matcher m = RESTORED.matcher(log);
        while (m.find()) {
            total += Long.parseLong(m.group(1));
        }
        return total;
    }
}
