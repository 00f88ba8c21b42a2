package org.chartstream.app.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;
import org.chartstream.runtime.config.ConfigException;

/**
 * {@code <data.dir>/run/runtime.properties}: how {@code ask}, {@code status}, {@code audit} and the other commands
 * find the pipeline {@code run} started. {@code run} deletes a file whose writer is gone before it starts (a file left
 * by a killed run names a broker that died with it) and writes it again, atomically, as soon as its broker address
 * is known.
 *
 * @param pid the process that wrote it
 */
record RuntimeFile(String bootstrapServers, long pid) {
    private static final String BOOTSTRAP = "bootstrap.servers";
    private static final String PID = "pid";

    static Path path(Path dataDir) {
        return dataDir.resolve("run").resolve("runtime.properties");
    }

    /** The file's text. */
    String format() {
        Properties p = new Properties();
        p.setProperty(BOOTSTRAP, bootstrapServers);
        p.setProperty(PID, Long.toString(pid));
        StringWriter out = new StringWriter();
        try {
            p.store(out, "written by chartstream run at each start; removed on shutdown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Parses the file's text; empty when it names no broker. */
    static Optional<RuntimeFile> parse(String text) {
        Properties p = new Properties();
        try (Reader r = new StringReader(text)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        String servers = p.getProperty(BOOTSTRAP, "").trim();
        if (servers.isEmpty()) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(p.getProperty(PID, "-1").trim());
        } catch (NumberFormatException e) {
            pid = -1;
        }
        return Optional.of(new RuntimeFile(servers, pid));
    }

    /** False when the process that wrote the file is known to be gone (then its embedded broker is gone too). */
    boolean writerAlive() {
        return pid <= 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    void write(Path dataDir) throws IOException {
        Path file = path(dataDir);
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, format(), StandardCharsets.ISO_8859_1);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Deletes a file whose writer is gone (a killed run's), before a run starts; a live run's file stays (the new run
     * will fail on that run's ports and database, and the live one keeps answering).
     */
    static void deleteIfWriterGone(Path dataDir) throws IOException {
        Path file = path(dataDir);
        if (Files.exists(file) && !parse(Files.readString(file, StandardCharsets.ISO_8859_1)).map(RuntimeFile::writerAlive).orElse(false)) {
            Files.deleteIfExists(file);
        }
    }

    /** Deletes the file if this process wrote it (a later run's file stays). */
    static void deleteIfWrittenBy(Path dataDir, long pid) throws IOException {
        Path file = path(dataDir);
        if (Files.exists(file) && parse(Files.readString(file, StandardCharsets.ISO_8859_1)).map(f -> f.pid() == pid).orElse(true)) {
            Files.deleteIfExists(file);
        }
    }

    /**
     * The broker of the running pipeline, or a {@link ConfigException} saying why there is none: no file, or a file
     * whose writer is no longer running.
     */
    static String runningBootstrap(Path dataDir) throws IOException {
        Path file = path(dataDir);
        if (!Files.exists(file)) {
            throw new ConfigException("no running pipeline found (" + file + " is missing): start one with `./chartstream run`"
                    + " or pass --bootstrap host:port");
        }
        RuntimeFile found = parse(Files.readString(file, StandardCharsets.ISO_8859_1)).orElseThrow(() -> new ConfigException(
                "no running pipeline found (" + file + " names no broker): start one with `./chartstream run`"));
        if (!found.writerAlive()) {
            throw new ConfigException("no pipeline answers at " + found.bootstrapServers() + " (from " + file + "): the run that wrote it"
                    + " (pid " + found.pid() + ") is no longer running. Start one with `./chartstream run`, or pass --bootstrap host:port");
        }
        return found.bootstrapServers();
    }
}
