package org.chartstream.app.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.chartstream.embedded.ChildJvmClassPath;

/** Starts {@link PipelineChild} in a new JVM on this JVM's class path and kills it with SIGKILL. */
final class ChildPipeline implements AutoCloseable {
    private final Process process;

    private ChildPipeline(Process process) {
        this.process = process;
    }

    static ChildPipeline start(Path configFile, Path runDir, Path log) throws IOException {
        return start(configFile, runDir, log, List.of());
    }

    /** @param roleAndSettings the role ({@code ingest}, …) and {@code key=value} settings over the file's */
    static ChildPipeline start(Path configFile, Path runDir, Path log, List<String> roleAndSettings) throws IOException {
        Files.createDirectories(runDir);
        Files.deleteIfExists(runDir.resolve("child.ready"));
        List<String> arguments = new java.util.ArrayList<>(List.of(configFile.toString(), runDir.toString()));
        arguments.addAll(roleAndSettings);
        List<String> command = ChildJvmClassPath.javaCommand(List.of("-Xmx1500m"), PipelineChild.class.getName(),
                arguments.toArray(String[]::new));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildPipeline(p);
    }

    static String classPath() {
        return ChildJvmClassPath.get();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: the pipeline gets no chance to close, flush or commit anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
