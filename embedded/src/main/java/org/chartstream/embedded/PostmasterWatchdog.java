package org.chartstream.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stops the embedded PostgreSQL when the JVM that started it dies, however it dies ({@code kill -9} included):
 * PostgreSQL has no "exit with my parent" setting, and {@code pg_ctl} detaches the server from the JVM. The
 * watchdog is a tiny shell child that reads its stdin, a pipe whose only writer is this JVM; the kernel closes the
 * pipe when the JVM ends, the shell's {@code read} returns, and the shell sends the server a fast shutdown (SIGINT)
 * if {@code postmaster.pid} still names that pid. It ignores SIGINT, SIGTERM and SIGHUP, so a Ctrl-C or a closed
 * terminal reaches the JVM (which stops the server itself) without taking the watchdog along first.
 */
final class PostmasterWatchdog implements AutoCloseable {
    static final String NAME = "chartstream-pg-watchdog";
    private static final String SCRIPT = String.join("\n",
            "trap '' INT TERM HUP",
            "while read -r _line; do :; done",
            "[ \"$(head -n 1 \"$2/postmaster.pid\" 2>/dev/null)\" = \"$1\" ] || exit 0",
            "kill -INT \"$1\" 2>/dev/null || exit 0",
            "i=0",
            "while kill -0 \"$1\" 2>/dev/null; do",
            "  i=$((i+1)); if [ $i -gt 300 ]; then kill -QUIT \"$1\" 2>/dev/null; exit 0; fi",
            "  sleep 0.1",
            "done", "");

    private final Process shell;

    private PostmasterWatchdog(Process shell) {
        this.shell = shell;
    }

    /** Starts watching for the death of this JVM on behalf of the postmaster {@code pid} serving {@code dataDir}. */
    static PostmasterWatchdog start(long pid, Path dataDir) throws IOException {
        Process shell = new ProcessBuilder(List.of("sh", "-c", SCRIPT, NAME, Long.toString(pid), dataDir.toString()))
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new PostmasterWatchdog(shell);
    }

    long pid() {
        return shell.pid();
    }

    /**
     * Ends the watchdog once the server has been stopped: closing the pipe makes it check {@code postmaster.pid},
     * which no longer names its server, so it exits without signalling anything.
     */
    @Override
    public void close() {
        try {
            shell.getOutputStream().close();
            if (!shell.waitFor(2, TimeUnit.SECONDS)) {
                shell.destroyForcibly();
            }
        } catch (IOException e) {
            shell.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shell.destroyForcibly();
        }
    }
}
