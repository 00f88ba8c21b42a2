package org.chartstream.app;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.models.OnnxSessions;

/**
 * ONNX Runtime 1.29 starts Microsoft's telemetry client unless {@code ORT_DISABLE_TELEMETRY=1} is in the environment
 * when its native library loads, and a running JVM cannot set its own environment. The launcher, the Dockerfile and
 * the test runners set it; a plain {@code java -jar chartstream-app.jar} does not. {@link Main} then runs itself
 * again as a child JVM with the switch set (same JVM options, class path and arguments, the terminal inherited) and
 * exits with the child's code, so nothing is sent whichever way the application is started.
 */
final class TelemetrySwitch {
    /** Set on the child, so that it never relaunches again. */
    static final String RELAUNCHED = "chartstream.telemetry-relaunched";
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private TelemetrySwitch() {
    }

    /** The child's command when this JVM must run itself again, or empty when the switch is set. */
    static Optional<List<String>> relaunchCommand(Map<String, String> environment, String javaHome, List<String> jvmOptions,
                                                  String classPath, String[] args) {
        if ("1".equals(environment.get(OnnxSessions.TELEMETRY_SWITCH)) || System.getProperty(RELAUNCHED) != null) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(javaHome, "bin", "java").toString());
        command.addAll(jvmOptions);
        if (jvmOptions.stream().noneMatch(o -> o.contains(VECTOR_MODULE))) {
            // Lucene's SIMD vector code: the launcher passes it, a plain java -jar does not
            command.add("--add-modules");
            command.add(VECTOR_MODULE);
        }
        command.add("-D" + RELAUNCHED + "=true");
        command.add("-cp");
        command.add(classPath);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return Optional.of(command);
    }

    /** Runs {@code command} with the switch set and the terminal inherited; returns its exit code. */
    static int run(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().put(OnnxSessions.TELEMETRY_SWITCH, "1");
        try {
            Process child = pb.start();
            // a stop signal to this JVM stops the child the same way (Ctrl-C reaches both through the terminal)
            Thread stopChild = new Thread(() -> {
                child.destroy();
                try {
                    child.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "stop-relaunched-child");
            Runtime.getRuntime().addShutdownHook(stopChild);
            int code = child.waitFor();
            Runtime.getRuntime().removeShutdownHook(stopChild);
            return code;
        } catch (java.io.IOException e) {
            System.err.println("chartstream: cannot start a JVM with " + OnnxSessions.TELEMETRY_SWITCH + "=1 (" + e.getMessage()
                    + "); set it in the environment, as ./chartstream does");
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** The JVM options this process was started with (heap size, system properties, agents). */
    static List<String> currentJvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments();
    }
}
