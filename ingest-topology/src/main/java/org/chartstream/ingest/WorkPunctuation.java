package org.chartstream.ingest;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * A wall-clock punctuation scheduled only while its task has work for it. Kafka Streams marks a task as needing a
 * commit after every punctuation that ran, and under exactly-once a commit is a transaction carrying the task's
 * consumed offsets even when it consumed nothing since the last one. A timer ticking on an idle task therefore costs
 * a transaction per commit interval for as long as the process runs (an idle ingest ran about 9 a second on each
 * stream thread: docs/history/PERFORMANCE-sessions-1-21.md, "Session 14"). So the punctuation is armed when work
 * arrives and cancels itself after a tick that leaves no work.
 */
final class WorkPunctuation {
    private final ProcessorContext<?, ?> context;
    private final Duration interval;
    private final BooleanSupplier tick;
    private Cancellable scheduled;

    /**
     * @param tick does the work that is due and says whether work remains (the punctuation keeps ticking while it
     *             does)
     */
    WorkPunctuation(ProcessorContext<?, ?> context, Duration interval, BooleanSupplier tick) {
        this.context = Objects.requireNonNull(context, "context");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.tick = Objects.requireNonNull(tick, "tick");
    }

    /** Schedules the punctuation, unless it is scheduled already: its first tick comes one interval from now. */
    void arm() {
        if (scheduled == null) {
            scheduled = context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, now -> {
                if (!tick.getAsBoolean() && scheduled != null) {
                    scheduled.cancel();
                    scheduled = null;
                }
            });
        }
    }
}
