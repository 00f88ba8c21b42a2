package org.chartstream.runtime;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * When an ingest process starts change data capture: once its ingest Kafka Streams client is {@code RUNNING} and, if
 * other ingest instances share its group, has stayed {@code RUNNING} for one settle period. A member that joins a
 * group whose tasks another instance holds is first given nothing (cooperative rebalancing: the holder revokes the
 * tasks that move, then rejoins), and learns of the follow-up rebalance only at its next heartbeat. Capture started
 * before that makes the first snapshot's tasks move, and restore their stores, between instances while they work.
 * Capture is correct either way; this only keeps the start-up rebalance ahead of the first change.
 */
final class CaptureStartGate implements KafkaStreams.StateListener {
    /** Why the wait ended. */
    enum Reason {
        /** Running, and no other instance is in the group: nothing will move. */
        RUNNING_ALONE,
        /** Running through a settle period with other instances in the group. */
        SETTLED,
        /** The client stopped or failed: capture starts and the runtime's health check reports the state. */
        STOPPED,
        /** Still rebalancing when the wait's bound passed. */
        TIMED_OUT
    }

    private final LongSupplier nanoClock;
    private KafkaStreams.State state = KafkaStreams.State.CREATED;
    private long runningSinceNanos;
    /** Counts the client's entries into {@code RUNNING}: the group is asked once per such period. */
    private int runningPeriod;
    private int askedInPeriod = -1;
    private boolean othersInPeriod;

    CaptureStartGate(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public synchronized void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState == KafkaStreams.State.RUNNING && state != KafkaStreams.State.RUNNING) {
            runningSinceNanos = nanoClock.getAsLong();
            runningPeriod++;
        }
        state = newState;
        notifyAll();
    }

    /**
     * The decision at one moment, or null to keep waiting. {@code othersInGroup} is asked only while running (it may
     * be a broker round trip), and once per period of running: the group's members change only through a rebalance,
     * which ends the period.
     */
    Reason decide(Duration settle, BooleanSupplier othersInGroup) {
        KafkaStreams.State now;
        long since;
        int period;
        Boolean known;
        synchronized (this) {
            now = state;
            since = runningSinceNanos;
            period = runningPeriod;
            known = askedInPeriod == period ? othersInPeriod : null;
        }
        return switch (now) {
            case RUNNING -> {
                // the group is asked outside the lock: a stream thread reporting a state change must not wait for the broker
                boolean others = known != null ? known : othersInGroup.getAsBoolean();
                synchronized (this) {
                    askedInPeriod = period;
                    othersInPeriod = others;
                }
                yield !others ? Reason.RUNNING_ALONE : nanoClock.getAsLong() - since >= settle.toNanos() ? Reason.SETTLED : null;
            }
            case PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR -> Reason.STOPPED;
            default -> null;
        };
    }

    /** Waits, checking every {@code step}, until {@link #decide} has a reason or {@code bound} has passed. */
    Reason await(Duration settle, Duration bound, Duration step, BooleanSupplier othersInGroup) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + bound.toNanos();
        while (true) {
            Reason reason = decide(settle, othersInGroup);
            if (reason != null) {
                return reason;
            }
            if (nanoClock.getAsLong() >= deadline) {
                return Reason.TIMED_OUT;
            }
            synchronized (this) {
                wait(step.toMillis());
            }
        }
    }
}
