package org.chartstream.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs a {@code chartstream} command in this JVM with the launcher's error handling, capturing what it prints. */
public record InProcessCli(int code, String out, String err, double seconds) {

    public static synchronized InProcessCli run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int code;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            CommandLine cli = new CommandLine(new Main());
            cli.setExecutionExceptionHandler(Main.ERROR_HANDLER);
            code = cli.execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        InProcessCli result = new InProcessCli(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8),
                (System.nanoTime() - t0) / 1e9);
        System.out.printf("[cli %s] exit %d in %.1f s; stderr: %s%n", String.join(" ", args), code, result.seconds(), result.err());
        return result;
    }
}
