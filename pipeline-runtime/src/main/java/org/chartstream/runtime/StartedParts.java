package org.chartstream.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** What a runtime has started, stopped in reverse order; a part that fails to stop is reported and the rest still stop. */
final class StartedParts implements AutoCloseable {
    private final List<AutoCloseable> parts = new ArrayList<>();
    private final Consumer<String> progress;

    StartedParts(Consumer<String> progress) {
        this.progress = progress;
    }

    /** Adds a part that has started; returns it. */
    <T extends AutoCloseable> T add(T part) {
        parts.add(part);
        return part;
    }

    @Override
    public void close() {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                progress.accept("while stopping: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        parts.clear();
    }
}
