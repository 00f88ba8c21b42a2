package org.chartstream.embedded;

/** Whether a process runs, for tests: a killed server whose new parent has not reaped it yet is a zombie, not alive. */
public final class LiveProcess {
    private LiveProcess() {
    }

    public static boolean running(long pid) {
        return StalePostmaster.view(pid).alive();
    }
}
