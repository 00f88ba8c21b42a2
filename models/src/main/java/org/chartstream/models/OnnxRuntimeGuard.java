package org.chartstream.models;

import java.util.Map;

/**
 * ONNX Runtime 1.29 crashes the JVM (SIGSEGV, no log) in {@code OrtEnvironment.getEnvironment()} when any system
 * property is longer than about 4 KB. A long {@code -cp} is the usual cause. This guard turns the crash into an
 * error that names the property and the fix.
 */
public final class OnnxRuntimeGuard {
    /** Longest system property value known to be safe. */
    public static final int MAX_PROPERTY_LENGTH = 4000;
    /**
     * Properties that only describe how the JVM was launched; the class loaders do not read them again. Test
     * runners (Surefire, Failsafe) fill them with the whole test classpath even with a manifest-only jar.
     */
    private static final String[] INFORMATIONAL_CLASSPATH_PROPERTIES = {"java.class.path", "surefire.test.class.path", "surefire.real.class.path", "jdk.module.path"};

    private OnnxRuntimeGuard() {
    }

    /** Throws, naming the property, if ONNX Runtime would crash on this JVM's system properties. */
    public static void check() {
        for (Map.Entry<Object, Object> e : System.getProperties().entrySet()) {
            String value = String.valueOf(e.getValue());
            if (value.length() > MAX_PROPERTY_LENGTH) {
                throw new IllegalStateException("system property '" + e.getKey() + "' is " + value.length()
                        + " characters long; ONNX Runtime crashes the JVM on properties over ~4 KB. Launch through a jar"
                        + " whose manifest carries the classpath (./chartstream does) instead of a long -cp.");
            }
        }
    }

    /**
     * For test JVMs: replaces over-long, purely informational class-path properties (set by the test runner, not
     * read by any class loader after start-up) with a marker, so ONNX Runtime can start. Returns how many it changed.
     */
    public static int shortenInformationalClassPathProperties() {
        int changed = 0;
        for (String name : INFORMATIONAL_CLASSPATH_PROPERTIES) {
            String value = System.getProperty(name);
            if (value != null && value.length() > MAX_PROPERTY_LENGTH) {
                System.setProperty(name, "(shortened for ONNX Runtime: " + value.length() + " characters)");
                changed++;
            }
        }
        return changed;
    }
}
