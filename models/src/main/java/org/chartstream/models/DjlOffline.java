package org.chartstream.models;

/**
 * Keeps DJL on this machine. Without these settings DJL's tokenizer loader "calls home" once a day: it asks the
 * cloud instance-metadata address (169.254.169.254) who runs it and reports to a usage endpoint — an outbound
 * connection a clinical data boundary must not make (found by {@code DemoPrivacyBoundaryIT}). Offline mode also
 * stops DJL from downloading anything: the tokenizer's native library ships inside its jar.
 */
public final class DjlOffline {
    private DjlOffline() {
    }

    /** Sets DJL's offline and opt-out switches unless the operator set them; call before the first DJL use. */
    public static void ensure() {
        setIfAbsent("ai.djl.offline", "true");
        setIfAbsent("OPT_OUT_TRACKING", "true");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
