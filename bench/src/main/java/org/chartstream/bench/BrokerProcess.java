package org.chartstream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.chartstream.embedded.EmbeddedKafkaBroker;

/**
 * {@code chartstream broker} in a JVM of its own, started from this one: a bench's broker whose CPU (its JIT
 * compilers above all) is counted apart from the bench's and whose JVM options are chosen apart from the bench's.
 */
final class BrokerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private final Process process;
    private final String bootstrapServers;

    private BrokerProcess(Process process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    /** Starts the broker on {@code dir}, its output in {@code log}; returns once it has printed its address. */
    static BrokerProcess start(QueryInstanceProcess.Launcher launcher, Path dir, Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(launcher.command(List.of("broker", "--dir", dir.toString())))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            Optional<String> address = address(log);
            if (address.isPresent()) {
                return new BrokerProcess(process, address.get());
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the bench's broker stopped before it listened (exit " + process.exitValue() + "; see " + log + ")");
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("the bench's broker did not listen within " + START_TIMEOUT.toSeconds() + " s (see " + log + ")");
            }
            Thread.sleep(100);
        }
    }

    private static Optional<String> address(Path log) throws IOException {
        if (!Files.exists(log)) {
            return Optional.empty();
        }
        return Files.readAllLines(log).stream().filter(l -> l.startsWith(EmbeddedKafkaBroker.BOOTSTRAP_LINE_PREFIX))
                .map(l -> l.substring(EmbeddedKafkaBroker.BOOTSTRAP_LINE_PREFIX.length()).trim()).findFirst();
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM (the broker closes its logs), SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        QueryInstanceProcess.terminate(process);
    }
}
