package org.chartstream.app;

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
}
