package org.chartstream.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The class path a child JVM of a test needs to see the same classes as the test. */
public final class ChildJvmClassPath {
    private ChildJvmClassPath() {
    }

    /**
     * The test runner starts this JVM with {@code -jar <booter jar>} whose manifest carries the whole class path
     * ({@code java.class.path} itself may have been shortened for ONNX Runtime by an earlier test in the same JVM);
     * the child uses the same jar.
     */
    public static String get() {
        Optional<String[]> args = ProcessHandle.current().info().arguments();
        if (args.isPresent()) {
            String[] a = args.get();
            for (int i = 0; i < a.length - 1; i++) {
                if (a[i].equals("-jar")) {
                    return a[i + 1];
                }
            }
        }
        String cp = System.getProperty("java.class.path");
        if (cp.startsWith("(shortened")) {
            throw new IllegalStateException("cannot find this JVM's class path for a child JVM");
        }
        return cp;
    }

    /**
     * The command that starts a child JVM like this one: this JVM's {@code java}, the given options, Lucene's vector
     * module (as the launcher adds it), this class path, the main class and its arguments.
     */
    public static List<String> javaCommand(List<String> jvmOptions, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("--add-modules", "jdk.incubator.vector", "-cp", get(), mainClass));
        command.addAll(List.of(args));
        return command;
    }
}
