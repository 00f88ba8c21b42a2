package org.chartstream.replica;

import java.time.Duration;

/**
 * What the materializer does with the store after a poll: applied events become searchable as soon as the log is
 * caught up (a refresh, no fsync), and durable, with the log position, once the oldest of them has waited
 * {@code maxCommitDelay} (a commit), under load or not. Committing only then keeps Lucene's commits (a segment
 * flush and fsyncs each) from holding up the next change, and the tiny segments they leave from piling up.
 */
enum StoreStep {
    COMMIT, REFRESH, NONE;

    /**
     * @param uncommitted      events were applied since the last commit
     * @param unrefreshed      events were applied since the last refresh or commit
     * @param caughtUp         the log holds no more events for now (the last fetch reached its end)
     * @param uncommittedFor   how long ago the oldest uncommitted event was applied
     * @param maxCommitDelay   longest time an applied event waits to be durable
     */
    static StoreStep after(boolean uncommitted, boolean unrefreshed, boolean caughtUp, Duration uncommittedFor, Duration maxCommitDelay) {
        if (uncommitted && uncommittedFor.compareTo(maxCommitDelay) >= 0) {
            return COMMIT;
        }
        return unrefreshed && caughtUp ? REFRESH : NONE;
    }
}
