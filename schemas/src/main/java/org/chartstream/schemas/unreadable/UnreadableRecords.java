package org.chartstream.schemas.unreadable;

import java.util.function.Consumer;

/** Where a reader of an internal topic reports a record it skipped. */
@FunctionalInterface
public interface UnreadableRecords {
    void skipped(UnreadableRecord record);

    /**
     * Reports each skipped record as one line (where and why, no content) and nothing else: for read-only commands
     * that have no producer at hand, and would dead-letter the same compacted record again at every run.
     */
    static UnreadableRecords reportingTo(Consumer<String> lines) {
        return r -> lines.accept(r.describe());
    }
}
