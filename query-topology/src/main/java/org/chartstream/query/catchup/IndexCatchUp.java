package org.chartstream.query.catchup;

import java.util.function.BooleanSupplier;

/**
 * Whether this instance's store replica holds what the index log held at a given moment. Every query instance
 * materialises its own replica from the log; one that has just started, or has just taken over request partitions
 * from an instance that died, may still be replaying it, and an answer from a replica that is behind could differ
 * from the one another instance gave (or would give) for the same request.
 */
@FunctionalInterface
public interface IndexCatchUp {
    /** For a store that is not a replica of the index log (a test's or a benchmark's own index): always caught up. */
    IndexCatchUp NONE = () -> () -> true;

    /**
     * Taken when a task starts (its request partition was assigned to this instance): says, each time it is asked,
     * whether the replica has reached the index log's end as of this call. Asked on the stream thread at every pass of
     * its loop until it says yes, so it must not block for long.
     */
    BooleanSupplier sinceNow();
}
