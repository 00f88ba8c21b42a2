package org.chartstream.benchmarks;

import io.debezium.connector.base.ChangeEventQueue;
import io.debezium.pipeline.DataChangeEvent;
import io.debezium.util.LoggingContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;
import org.chartstream.connectors.DebeziumConfigs;
import org.chartstream.connectors.IdleQueueWait;

/**
 * CPU of a change-data-capture poll thread while the source is idle: Debezium's {@code ChangeEventQueue.poll} called
 * in a loop as its engine does, against the same loop behind {@link IdleQueueWait}, both on an empty queue with the
 * pipeline's {@code poll.interval.ms} ({@value DebeziumConfigs#POLL_INTERVAL_MS} ms), alternated {@code rounds} times
 * in one run. Not JMH: what is measured is the thread's CPU time per second of wall time, not time per operation.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar org.chartstream.benchmarks.IdleChangeQueueCpu [seconds per round] [rounds]</pre>
 *
 * <p>The last stdout line is one JSON object:
 * {@code {"debezium_poll_cpu_pct":…, "idle_wait_cpu_pct":…, "ratio":…, "polls_per_s":…, "waiting_polls_per_s":…}}
 * (CPU as a percentage of one core; ratio = idle wait / Debezium's poll).
 */
public final class IdleChangeQueueCpu {

    /** Holds the queue in a field named as Debezium's tasks name it, for {@link IdleQueueWait#forTask}. */
    static final class Task {
        @SuppressWarnings("unused")
        private final ChangeEventQueue<DataChangeEvent> queue = new ChangeEventQueue.Builder<DataChangeEvent>()
                .pollInterval(Duration.ofMillis(Long.parseLong(DebeziumConfigs.POLL_INTERVAL_MS))).maxBatchSize(2048)
                .maxQueueSize(8192).loggingContextSupplier(() -> LoggingContext.forConnector("bench", "bench", "bench")).build();
    }

    private record Round(double cpuPct, double pollsPerS) {
    }

    private interface Loop {
        void pollOnce() throws InterruptedException;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Task task = new Task();
        IdleQueueWait wait = IdleQueueWait.forTask(Task.class);
        Loop plain = () -> task.queue.poll();
        Loop waiting = () -> wait.poll(task, () -> {
            task.queue.poll();
            return java.util.List.of();
        });
        double plainCpu = 0;
        double waitCpu = 0;
        double plainPolls = 0;
        double waitPolls = 0;
        for (int r = 0; r < rounds; r++) {
            Round p = measure(plain, seconds);
            Round w = measure(waiting, seconds);
            System.out.printf(Locale.ROOT, "round %d: Debezium's poll %.2f %% of a core (%.0f polls/s), behind the idle wait %.2f %% (%.1f polls/s)%n",
                    r + 1, p.cpuPct, p.pollsPerS, w.cpuPct, w.pollsPerS);
            plainCpu += p.cpuPct / rounds;
            waitCpu += w.cpuPct / rounds;
            plainPolls += p.pollsPerS / rounds;
            waitPolls += w.pollsPerS / rounds;
        }
        System.out.printf(Locale.ROOT, "{\"debezium_poll_cpu_pct\":%.2f, \"idle_wait_cpu_pct\":%.2f, \"ratio\":%.3f, \"polls_per_s\":%.1f,"
                + " \"waiting_polls_per_s\":%.1f}%n", plainCpu, waitCpu, waitCpu / plainCpu, plainPolls, waitPolls);
    }

    private static Round measure(Loop loop, double seconds) throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long wallNs = (long) (seconds * 1e9);
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        int polls = 0;
        while (System.nanoTime() - t0 < wallNs) {
            loop.pollOnce();
            polls++;
        }
        long elapsed = System.nanoTime() - t0;
        return new Round(100.0 * (threads.getCurrentThreadCpuTime() - cpu0) / elapsed, polls * 1e9 / elapsed);
    }
}
