package org.chartstream.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a PostgreSQL server that a killed JVM left running on its data directory, and stops it. The server's
 * {@code postmaster.pid} names its pid (line 1) and data directory (line 2); the process must really be a
 * {@code postgres} working in that directory (its command line and current directory, read from {@code /proc}),
 * else the pid has been reused and only the stale file is in the way. A server whose JVM still runs (it holds zonky's
 * {@code epg-lock} in the data directory) is never stopped: starting then fails, naming it. Linux only; elsewhere
 * nothing is done.
 */
final class StalePostmaster {
    private static final Logger LOG = LoggerFactory.getLogger(StalePostmaster.class);
    private static final String ZONKY_LOCK = "epg-lock";

    /** What one process looks like from outside: its command line and current directory (absent when unreadable). */
    record ProcessView(boolean alive, List<String> commandLine, Optional<Path> workingDirectory) {
        static final ProcessView GONE = new ProcessView(false, List.of(), Optional.empty());
    }

    /** What to do about the data directory's lock file before starting a server on it. */
    sealed interface Verdict {
        /** No lock file, or one whose server cannot be identified either way: leave it to PostgreSQL. */
        record Leave(String why) implements Verdict {
        }

        /** A postgres on this data directory whose JVM is gone: stop it. */
        record Stop(long pid) implements Verdict {
        }
    }

    private StalePostmaster() {
    }

    /** The pid on line 1 of a {@code postmaster.pid}, if it holds one. */
    static Optional<Long> pid(List<String> pidFileLines) {
        if (pidFileLines.isEmpty()) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(pidFileLines.get(0).trim());
            return pid > 0 ? Optional.of(pid) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * @param dataDir     the data directory about to be started (real path)
     * @param pidFileLines the lines of its {@code postmaster.pid}, empty when there is none
     * @param process     the process the file names
     */
    static Verdict decide(Path dataDir, List<String> pidFileLines, ProcessView process) {
        Optional<Long> pid = pid(pidFileLines);
        if (pid.isEmpty()) {
            return new Verdict.Leave("no server pid in postmaster.pid");
        }
        if (pidFileLines.size() < 2 || !Path.of(pidFileLines.get(1).trim()).normalize().equals(dataDir)) {
            return new Verdict.Leave("postmaster.pid names another data directory");
        }
        if (!process.alive()) {
            return new Verdict.Leave("its server is not running"); // PostgreSQL takes over a lock file of a dead pid itself
        }
        boolean postgres = !process.commandLine().isEmpty()
                && Path.of(process.commandLine().get(0)).getFileName().toString().equals("postgres");
        if (!postgres) {
            return new Verdict.Leave("pid " + pid.get() + " is not a postgres");
        }
        boolean onThisDirectory = process.workingDirectory().map(dataDir::equals)
                .orElseGet(() -> dataDirectoryArgument(process.commandLine()).map(dataDir::equals).orElse(false));
        return onThisDirectory ? new Verdict.Stop(pid.get()) : new Verdict.Leave("pid " + pid.get() + " serves another data directory");
    }

    private static Optional<Path> dataDirectoryArgument(List<String> commandLine) {
        for (int i = 1; i < commandLine.size() - 1; i++) {
            if (commandLine.get(i).equals("-D")) {
                return Optional.of(Path.of(commandLine.get(i + 1)).toAbsolutePath().normalize());
            }
        }
        return Optional.empty();
    }

    /** Stops the server a dead run left on {@code dataDir}, if there is one; returns its pid. */
    static Optional<Long> stopIfLeftRunning(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile) || !System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.empty();
        }
        Path real = dataDir.toRealPath();
        List<String> lines;
        try {
            lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return Optional.empty(); // removed meanwhile
        }
        Verdict verdict = decide(real, lines, pid(lines).map(StalePostmaster::view).orElse(ProcessView.GONE));
        if (verdict instanceof Verdict.Leave leave) {
            LOG.debug("postmaster.pid in {} left as it is: {}", dataDir, leave.why());
            return Optional.empty();
        }
        long pid = ((Verdict.Stop) verdict).pid();
        // zonky holds <data>/epg-lock while its JVM runs: a server whose lock can be taken has lost its JVM
        try (FileChannel channel = FileChannel.open(dataDir.resolve(ZONKY_LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw inUse(pid, dataDir);
            }
            LOG.warn("stopping the PostgreSQL server (pid {}) that an earlier run left on {}", pid, dataDir);
            stop(pid, pidFile);
        } catch (OverlappingFileLockException e) {
            throw inUse(pid, dataDir);
        }
        return Optional.of(pid);
    }

    private static IOException inUse(long pid, Path dataDir) {
        return new IOException("PostgreSQL (pid " + pid + ") on " + dataDir + " belongs to a process that is still running (it holds "
                + ZONKY_LOCK + "): is another chartstream using this data directory?");
    }

    /** Fast shutdown (SIGINT); immediate (SIGQUIT) if that takes longer than 30 s; SIGKILL as the last resort. */
    private static void stop(long pid, Path pidFile) throws IOException {
        for (String signal : List.of("INT", "QUIT", "KILL")) {
            signal(pid, signal);
            if (awaitExit(pid, Duration.ofSeconds(signal.equals("INT") ? 30 : 10))) {
                return;
            }
        }
        throw new IOException("the PostgreSQL server (pid " + pid + ") left on " + pidFile.getParent() + " does not stop");
    }

    private static void signal(long pid, String signal) throws IOException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            kill.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping PostgreSQL", e);
        }
    }

    private static boolean awaitExit(long pid, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (view(pid).alive()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while stopping PostgreSQL", e);
            }
        }
        return true;
    }

    /** The process as {@code /proc} shows it; a zombie counts as gone. */
    static ProcessView view(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            String stat = Files.readString(proc.resolve("stat"), StandardCharsets.US_ASCII);
            int close = stat.lastIndexOf(')');
            if (close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z') {
                return ProcessView.GONE;
            }
            byte[] raw = Files.readAllBytes(proc.resolve("cmdline"));
            List<String> args = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] == 0) {
                    args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            Optional<Path> cwd;
            try {
                cwd = Optional.of(proc.resolve("cwd").toRealPath());
            } catch (IOException e) {
                cwd = Optional.empty();
            }
            return new ProcessView(true, args, cwd);
        } catch (IOException e) {
            return ProcessView.GONE;
        }
    }
}
