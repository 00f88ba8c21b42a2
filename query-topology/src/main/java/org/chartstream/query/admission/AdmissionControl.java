package org.chartstream.query.admission;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the requests in flight (running or waiting for an earlier turn of their conversation). Past the limit a
 * request gets a {@code busy} reply at once instead of joining a queue. The limit adapts to measured capacity
 * ({@link AimdLimit}, within the configured bounds): each release reports how long its request took, so the limit
 * settles where admitted requests stop queueing behind each other.
 */
public final class AdmissionControl {
    private final AimdLimit limit;
    private volatile int currentLimit;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();

    /** A limit that adapts within [{@code min}, {@code max}]; equal bounds make it fixed. */
    public AdmissionControl(int min, int max) {
        this.limit = new AimdLimit(min, max);
        this.currentLimit = limit.limit();
    }

    public boolean tryAcquire() {
        while (true) {
            int n = inFlight.get();
            if (n >= currentLimit) {
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

    /** A request admitted {@code latencyMs} ago is done: its slot is free and its latency moves the limit. */
    public void release(long latencyMs) {
        synchronized (limit) {
            limit.onSample(latencyMs, inFlight.get());
            currentLimit = limit.limit();
        }
        if (inFlight.decrementAndGet() < 0) {
            inFlight.set(0);
            throw new IllegalStateException("admission released more often than acquired");
        }
    }

    /**
     * Frees the slots of {@code n} requests this instance will not finish: their task moved to another instance (which
     * answers them from the pending store). No latency sample: they did not run to the end here.
     */
    public void abandon(int n) {
        inFlight.updateAndGet(current -> Math.max(0, current - n));
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** The limit in force now. */
    public int limit() {
        return currentLimit;
    }

    /** Requests turned away (busy) since start. */
    public long rejected() {
        return rejected.get();
    }

    public boolean hasCapacity() {
        return inFlight.get() < currentLimit;
    }
}
