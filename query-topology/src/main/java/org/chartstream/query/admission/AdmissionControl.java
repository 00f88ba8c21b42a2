package org.chartstream.query.admission;

import java.util.Collection;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the requests in flight (running or waiting for an earlier turn of their conversation). Past the limit a
 * request gets a {@code busy} reply at once instead of joining a queue, unless it is a turn that waits behind a turn
 * of its conversation already in flight ({@link #acquirePastLimit}): its {@code busy} would overtake that turn's
 * answer. The limit adapts to measured capacity
 * ({@link AimdLimit}, within the configured bounds): each release reports how long its request took, so the limit
 * settles where admitted requests stop queueing behind each other. Each request in flight is held by the time it was
 * admitted, so that the age of the oldest one can be read: a request that stays in flight far longer than answers
 * take is stuck, and one in flight for longer than a commit interval is in the committed pending store.
 */
public final class AdmissionControl {
    /**
     * Most turns of one conversation in flight for a further turn to be admitted past the limit (behind them). Clients
     * post a few turns at once (the bench 3, the tests up to 4); a conversation flooding more gets {@code busy} for the
     * rest, as any request past the limit. Not tuned; {@code query.turns-past-limit}.
     */
    public static final int DEFAULT_TURNS_PAST_LIMIT = 8;

    private final AimdLimit limit;
    private final int turnsPastLimit;
    private volatile int currentLimit;
    /** Admission time (ms since the epoch) → requests in flight admitted then; guarded by itself. */
    private final TreeMap<Long, Integer> admitted = new TreeMap<>();
    private int inFlight;
    private final AtomicLong rejected = new AtomicLong();

    /** A limit that adapts within [{@code min}, {@code max}]; equal bounds make it fixed. */
    public AdmissionControl(int min, int max) {
        this(min, max, DEFAULT_TURNS_PAST_LIMIT);
    }

    /**
     * @param turnsPastLimit most turns of a conversation in flight behind which a further turn is admitted past the
     *                       limit ({@link #waitsBehind}); 0: never
     */
    public AdmissionControl(int min, int max, int turnsPastLimit) {
        if (turnsPastLimit < 0) {
            throw new IllegalArgumentException("turns past the limit must be at least 0, got " + turnsPastLimit);
        }
        this.limit = new AimdLimit(min, max);
        this.currentLimit = limit.limit();
        this.turnsPastLimit = turnsPastLimit;
    }

    /**
     * Whether a turn whose conversation has {@code turnsInFlight} turns in flight is admitted past the limit
     * ({@link #acquirePastLimit}) and waits behind them: its {@code busy} reply would overtake their answers, and
     * waiting adds no work in parallel.
     */
    public boolean waitsBehind(int turnsInFlight) {
        return turnsInFlight > 0 && turnsInFlight <= turnsPastLimit;
    }

    /** Admits a request received at {@code admittedMs} if a slot is free; otherwise counts it as turned away. */
    public boolean tryAcquire(long admittedMs) {
        synchronized (admitted) {
            if (inFlight >= currentLimit) {
                rejected.incrementAndGet();
                return false;
            }
            hold(admittedMs);
            return true;
        }
    }

    /**
     * Admits whatever the limit: a request recovered after a restart (admitted at {@code admittedMs}, before it), or a
     * turn that waits behind a turn of its conversation already in flight, which adds no work in parallel.
     */
    public void acquirePastLimit(long admittedMs) {
        synchronized (admitted) {
            hold(admittedMs);
        }
    }

    /** The request admitted at {@code admittedMs} is done at {@code nowMs}: its slot is free and its latency moves the limit. */
    public void release(long admittedMs, long nowMs) {
        synchronized (admitted) {
            if (!free(admittedMs)) {
                throw new IllegalStateException("admission released a request it does not hold (admitted at " + admittedMs + ")");
            }
            limit.onSample(nowMs - admittedMs, inFlight + 1);
            currentLimit = limit.limit();
        }
    }

    /**
     * Frees the slots of requests (by admission time) this instance will not finish: their task moved to another
     * instance (which answers them from the pending store). No latency sample: they did not run to the end here.
     */
    public void abandon(Collection<Long> admittedMs) {
        synchronized (admitted) {
            admittedMs.forEach(this::free);
        }
    }

    public int inFlight() {
        synchronized (admitted) {
            return inFlight;
        }
    }

    /** How long the oldest request in flight has been, at {@code nowMs}; 0 with none in flight. */
    public long oldestInFlightAgeMs(long nowMs) {
        synchronized (admitted) {
            return admitted.isEmpty() ? 0 : Math.max(0, nowMs - admitted.firstKey());
        }
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
        return inFlight() < currentLimit;
    }

    private void hold(long admittedMs) {
        admitted.merge(admittedMs, 1, Integer::sum);
        inFlight++;
    }

    private boolean free(long admittedMs) {
        Integer n = admitted.get(admittedMs);
        if (n == null) {
            return false;
        }
        if (n == 1) {
            admitted.remove(admittedMs);
        } else {
            admitted.put(admittedMs, n - 1);
        }
        inFlight--;
        return true;
    }
}
