package org.chartstream.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a runtime has started, stopped in reverse order (the last started first); a part that fails to stop is reported
 * and the rest still stop.
 */
final class StartedParts implements AutoCloseable {
    private final List<AutoCloseable> parts = new ArrayList<>();
    private final Consumer<String> progress;
    private Boolean outcome;

    StartedParts(Consumer<String> progress) {
        this.progress = progress;
    }

    /** Adds a part that has started; returns it. */
    <T extends AutoCloseable> T add(T part) {
        parts.add(part);
        return part;
    }

    /** Stops every part, the last started first; returns whether every part stopped without an error. */
    boolean stop() {
        boolean interrupted = Thread.interrupted(); // a stop asked for by an interrupt still waits for each part to close
        boolean clean = true;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                clean = false;
                progress.accept("while stopping: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        parts.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return clean;
    }

    /**
     * {@link #stop} once (later calls return the first outcome), logged as "{@code what} stopped cleanly in N ms" or
     * as not clean, the failures named above it.
     */
    synchronized boolean stopLogged(String what) {
        if (outcome == null) {
            long t = System.nanoTime();
            progress.accept("stopping the " + what);
            outcome = stop();
            long ms = (System.nanoTime() - t) / 1_000_000;
            progress.accept(outcome ? what + " stopped cleanly in " + ms + " ms" : what + " stopped in " + ms + " ms, not cleanly (see above)");
        }
        return outcome;
    }

    @Override
    public void close() {
        stop();
    }
}
