package org.chartstream.client;

import java.util.HashSet;
import java.util.Set;
import org.chartstream.schemas.ReplyEvent;

/**
 * The reply events of one request as its client should take them. Replies are at least once: after a crash the
 * pipeline answers what was pending again and may send an event a second time under the same request id and seq
 * (docs/ARCHITECTURE.md, "Reply delivery"). So an event whose seq was seen is dropped, and so is everything after the
 * first final reply (which carries the whole answer and its citations). A final reply under a seen seq still counts:
 * a request accepted just before a crash can be read again after it and answered {@code busy}, under seq 0 again.
 */
public final class ReplyDeduplicator {
    private final Set<Integer> seen = new HashSet<>();
    private boolean finished;

    /** Whether {@code event} (of this dedupe's request) is to be handed on. */
    public boolean isNew(ReplyEvent event) {
        if (finished) {
            return false;
        }
        if (QueryClient.FINAL.contains(event.getType())) {
            finished = true;
            return true;
        }
        return seen.add(event.getSeq());
    }
}
