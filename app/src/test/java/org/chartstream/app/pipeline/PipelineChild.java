package org.chartstream.app.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The pipeline in a JVM of its own, so that a test can stop it abruptly ({@code kill -9}): no close, no flush, no
 * shutdown hook. Arguments: the configuration file, the run directory, and optionally the role ({@code all},
 * {@code ingest} or {@code query}; default all) followed by {@code key=value} settings over the file's.
 */
public final class PipelineChild {
    private PipelineChild() {
    }

    public static void main(String[] args) {
        try {
            OnnxRuntimeGuard.shortenInformationalClassPathProperties();
            ChartstreamConfig config = ChartstreamConfig.load(Path.of(args[0]), Map.of());
            for (int i = 3; i < args.length; i++) {
                config = config.with(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
            }
            PipelineRuntime.Role role = args.length > 2 ? PipelineRuntime.Role.valueOf(args[2].toUpperCase(java.util.Locale.ROOT))
                    : PipelineRuntime.Role.ALL;
            PipelineRuntime runtime = PipelineRuntime.start(config, Path.of(args[1]), c -> Map.of(),
                    line -> System.out.println("[child] " + line), role);
            Files.writeString(Path.of(args[1]).resolve("child.ready"), Long.toString(ProcessHandle.current().pid()));
            while (true) {
                runtime.checkHealthy();
                Thread.sleep(500);
            }
        } catch (Throwable e) {
            // the pipeline's own threads would keep a half-started JVM alive: end it so the test sees the failure
            e.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
    }
}
