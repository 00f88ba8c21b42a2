package org.chartstream.connectors;

import io.debezium.connector.base.ChangeEventQueue;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once a Debezium task's source has been quiet for {@link #DEFAULT_QUIET}, calls the task's poll only when its
 * change-event queue holds an event (or once per {@link #DEFAULT_RECHECK}), so that an idle connector sleeps instead
 * of spinning. One per task.
 *
 * <p>Why: Debezium's {@code ChangeEventQueue.poll} (3.5.0 and 3.6.1 alike) waits for a full batch or for
 * {@code poll.interval.ms}; its timer counts whole milliseconds, is expired only once more than the interval has
 * passed, and reports 0 ms left while exactly the interval has, so each call ends in a busy loop of up to a
 * millisecond. With this pipeline's 10 ms interval an idle connector's poll thread burns about 8 % of a core
 * ({@code IdleChangeQueueCpu} in the benchmarks module). Waiting here in short sleeps while the queue is empty costs a
 * quarter of that. A change that ends a quiet spell is handed to Debezium's poll within a step, which then gathers
 * more for one whole interval, where before it waited for the rest of the interval it arrived in: about half an
 * interval later on average (5 ms; {@code bench freshness}'s commit-to-change-topic hop). While changes keep coming
 * (less than the quiet time apart) Debezium's poll is called as before. Debezium's poll is still called every
 * recheck while nothing arrives, so an error the capture thread left on the queue (a lost database connection)
 * still stops the task.
 *
 * <p>The queue is a private field of the connector task; where it cannot be read (another Debezium version), the
 * task polls as Debezium does and a warning says so.
 */
public final class IdleQueueWait {
    private static final Logger LOG = LoggerFactory.getLogger(IdleQueueWait.class);

    /** Longest wait without calling Debezium's poll, which surfaces the capture thread's errors. */
    public static final Duration DEFAULT_RECHECK = Duration.ofMillis(250);
    /**
     * How long after the last change this wait starts: a change stream with shorter gaps keeps Debezium's latency;
     * an idle second costs Debezium's spin for one second only.
     */
    public static final Duration DEFAULT_QUIET = Duration.ofSeconds(1);
    /**
     * The sleep between two looks at the queue. A timed sleep costs about 20 µs of CPU on these virtual machines
     * (park and wake-up), so 1 ms steps would cost 2 % of a core; 2 ms cost 1 % and add 1 ms on average to a change.
     */
    private static final long STEP_MS = 2;

    /** Debezium's own poll of the task. */
    @FunctionalInterface
    public interface DebeziumPoll {
        List<SourceRecord> poll() throws InterruptedException;
    }

    private final Field queueField;
    private final Duration recheck;
    private final long quietNanos;
    private long lastChangeNanos;

    private IdleQueueWait(Field queueField, Duration recheck, Duration quiet) {
        this.queueField = queueField;
        this.recheck = recheck;
        this.quietNanos = quiet.toNanos();
        this.lastChangeNanos = System.nanoTime();
    }

    /**
     * The wait for tasks of {@code taskClass}, whose change-event queue is its private field {@code queue}; without
     * such a field, one that always polls at once.
     */
    public static IdleQueueWait forTask(Class<?> taskClass) {
        return forTask(taskClass, DEFAULT_RECHECK, DEFAULT_QUIET);
    }

    static IdleQueueWait forTask(Class<?> taskClass, Duration recheck, Duration quiet) {
        if (recheck.isNegative() || recheck.isZero()) {
            throw new IllegalArgumentException("recheck must be positive, got " + recheck);
        }
        if (quiet.isNegative()) {
            throw new IllegalArgumentException("quiet must not be negative, got " + quiet);
        }
        try {
            Field f = taskClass.getDeclaredField("queue");
            if (!ChangeEventQueue.class.isAssignableFrom(f.getType())) {
                throw new NoSuchFieldException("queue is a " + f.getType().getName());
            }
            f.setAccessible(true);
            return new IdleQueueWait(f, recheck, quiet);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("{} has no readable change-event queue ({}): its poll thread spins while the source is idle, as"
                    + " Debezium's does", taskClass.getName(), e.toString());
            return new IdleQueueWait(null, recheck, quiet);
        }
    }

    /** True when this wait can see the task's queue (false: every poll goes to Debezium at once). */
    public boolean seesQueue() {
        return queueField != null;
    }

    /**
     * Once the source has been quiet, waits while {@code task}'s queue is empty, at most the recheck time; then
     * calls {@code debeziumPoll}.
     */
    public List<SourceRecord> poll(Object task, DebeziumPoll debeziumPoll) throws InterruptedException {
        ChangeEventQueue<?> queue = queueOf(task);
        long now = System.nanoTime();
        if (queue != null && now - lastChangeNanos >= quietNanos) {
            long deadline = now + recheck.toNanos();
            // remainingCapacity reads the queue's size without its lock: a stale read costs one more step
            while (queue.remainingCapacity() >= queue.totalCapacity() && System.nanoTime() < deadline) {
                Thread.sleep(STEP_MS);
            }
        }
        List<SourceRecord> records = debeziumPoll.poll();
        if (records != null && !records.isEmpty()) {
            lastChangeNanos = System.nanoTime();
        }
        return records;
    }

    private ChangeEventQueue<?> queueOf(Object task) {
        if (queueField == null) {
            return null;
        }
        try {
            return (ChangeEventQueue<?>) queueField.get(task); // null before the task has started
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}
