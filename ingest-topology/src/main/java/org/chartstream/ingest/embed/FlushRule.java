package org.chartstream.ingest.embed;

import java.time.Duration;

/**
 * When the embedding buffer's pending events are embedded and forwarded. A batch waits only while it is actually
 * filling: pending events go out as soon as a batch's worth of chunks is pending, as soon as no event was appended
 * for {@code quiet} (the input is drained: an idle pipeline embeds a lone change at once), and at the latest
 * {@code linger} after the first of them was appended (input that trickles in without pause).
 *
 * @param batchChunks chunks per embedding call
 * @param quiet       how long the input must stay silent before a partial batch goes out
 * @param linger      longest time a pending event waits for its batch to fill
 */
public record FlushRule(int batchChunks, Duration quiet, Duration linger) {

    public FlushRule {
        if (batchChunks < 1) {
            throw new IllegalArgumentException("batchChunks must be at least 1, got " + batchChunks);
        }
        if (quiet.isNegative() || quiet.isZero() || linger.compareTo(quiet) < 0) {
            throw new IllegalArgumentException("need 0 < quiet <= linger, got " + quiet + " and " + linger);
        }
    }

    /** True once a batch's worth of chunks is pending. */
    public boolean full(int pendingChunks) {
        return pendingChunks >= batchChunks;
    }

    /**
     * @param pendingEvents     events waiting (a delete or a publish marker has no chunk but must still go out)
     * @param pendingChunks     chunks among them that need a vector
     * @param firstPendingAgeMs how long ago the oldest pending event was appended
     * @param lastAppendAgeMs   how long ago the newest pending event was appended
     */
    public boolean due(int pendingEvents, int pendingChunks, long firstPendingAgeMs, long lastAppendAgeMs) {
        if (pendingEvents == 0) {
            return false;
        }
        return full(pendingChunks) || lastAppendAgeMs >= quiet.toMillis() || firstPendingAgeMs >= linger.toMillis();
    }
}
