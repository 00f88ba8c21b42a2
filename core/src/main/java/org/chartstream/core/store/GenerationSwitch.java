package org.chartstream.core.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule every store applies to {@link HybridStore#publish}: publishing the active generation again is a no-op (a
 * marker re-delivered after a crash), and publishing an older one than the active one is refused (a stale marker
 * must not bring back superseded chunks).
 */
public final class GenerationSwitch {
    private static final Logger LOG = LoggerFactory.getLogger(GenerationSwitch.class);

    private GenerationSwitch() {
    }

    /** @param active the generation the store will show for the table (null: none) */
    public static boolean changesActive(TableRef table, Long active, long generation) {
        if (active != null && active == generation) {
            LOG.debug("generation {} of {} is already active: no-op", generation, table);
            return false;
        }
        if (active != null && generation < active) {
            LOG.warn("ignoring publication of generation {} of {}: generation {} is newer and already active",
                generation, table, active);
            return false;
        }
        return true;
    }
}
