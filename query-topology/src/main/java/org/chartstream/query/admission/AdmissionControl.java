package org.chartstream.query.admission;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the requests in flight (running or waiting for an earlier turn of their conversation). Past the limit a
 * request gets a {@code busy} reply at once instead of joining a queue that grows without bound.
 */
public final class AdmissionControl {
    private final int limit;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();

    public AdmissionControl(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("admission limit must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    public boolean tryAcquire() {
        while (true) {
            int n = inFlight.get();
            if (n >= limit) {
                rejected.incrementAndGet();
                return false;
            }
            if (inFlight.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Admits unconditionally: requests recovered after a restart were admitted before it. */
    public void acquireRecovered() {
        inFlight.incrementAndGet();
    }

    public void release() {
        if (inFlight.decrementAndGet() < 0) {
            inFlight.set(0);
            throw new IllegalStateException("admission released more often than acquired");
        }
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int limit() {
        return limit;
    }

    /** Requests turned away (busy) since start. */
    public long rejected() {
        return rejected.get();
    }

    public boolean hasCapacity() {
        return inFlight.get() < limit;
    }
}
