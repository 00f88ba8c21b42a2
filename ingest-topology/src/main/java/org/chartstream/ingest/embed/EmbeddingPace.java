package org.chartstream.ingest.embed;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * How long the model takes per chunk, from the recent flushes, and so how many chunks one embedding call may take
 * to finish within a time budget. A flush runs inside the ingest's Streams transaction, which the broker aborts
 * when it stays open past the transaction timeout: a batch sized for a fast, idle machine could then never finish
 * on a slow or loaded one (the same batch is retried and aborted again, and nothing is indexed). The estimate is an
 * exponential average over flushes (each new flush weighs {@value #WEIGHT}), so it follows the machine's load.
 * One pace serves every embedding task of a process (they run the same model on the same cores), so a task that is
 * created again after a rebalance or a fenced transaction starts from what the process has measured, not from the
 * full configured batch that may be what timed the transaction out.
 *
 * <p>It also lets the process's model calls run one at a time ({@link #embed}): the ingest runs more than one stream
 * thread (so that the planner task never waits behind an embedding call), and without this the embedding tasks of
 * two threads would run the model on twice the cores {@code embedding.threads} gives it. The time a call waits for
 * the other tasks' calls is not the model's pace; {@code sharers} in {@link #batchLimit} already budgets for it.
 * Being the one thing the process's embedding tasks share, it also keeps their {@link VectorCache}: a text one task
 * embedded is not embedded again by another.
 */
public final class EmbeddingPace {
    private static final double WEIGHT = 0.5;

    private final long budgetMs;
    private final LongSupplier clockMs;
    private final ReentrantLock oneCallAtATime = new ReentrantLock(true);
    private final VectorCache vectors;
    private double msPerChunk;

    /** @param budget longest time one embedding call should take */
    public EmbeddingPace(Duration budget) {
        this(budget, () -> System.nanoTime() / 1_000_000);
    }

    /**
     * @param clockMs the clock that times the model calls: a running one (a Kafka Streams task's
     *                {@code currentSystemTimeMs} is cached per loop of the stream thread, so a call measured on it
     *                takes 0 ms)
     */
    public EmbeddingPace(Duration budget, LongSupplier clockMs) {
        this(budget, clockMs, new VectorCache(VectorCache.DEFAULT_CAPACITY));
    }

    /** @param vectors the vectors of recent texts, shared by the tasks this pace serves */
    public EmbeddingPace(Duration budget, LongSupplier clockMs, VectorCache vectors) {
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("budget must be positive, got " + budget);
        }
        this.budgetMs = budget.toMillis();
        this.clockMs = clockMs;
        this.vectors = vectors;
    }

    /** The vectors of the texts this process embedded recently. */
    public VectorCache vectors() {
        return vectors;
    }

    /**
     * Runs one embedding slice once no other slice of this process is running: {@code slice} embeds until the
     * deadline it is given says {@code sliceMs} have passed on this pace's clock (the wait for the lock not counted)
     * and returns how many chunks it embedded; the pace records them.
     *
     * @return the slice's milliseconds
     */
    long embed(long sliceMs, ToIntFunction<BooleanSupplier> slice) {
        oneCallAtATime.lock();
        try {
            long t0 = clockMs.getAsLong();
            int chunks = slice.applyAsInt(() -> clockMs.getAsLong() - t0 >= sliceMs);
            long elapsedMs = clockMs.getAsLong() - t0;
            embedded(chunks, elapsedMs);
            return elapsedMs;
        } finally {
            oneCallAtATime.unlock();
        }
    }

    /** Records a flush that embedded {@code chunks} chunks in {@code elapsedMs}. */
    synchronized void embedded(int chunks, long elapsedMs) {
        if (chunks < 1) {
            return;
        }
        double sample = (double) Math.max(elapsedMs, 0) / chunks;
        msPerChunk = msPerChunk == 0 ? sample : (1 - WEIGHT) * msPerChunk + WEIGHT * sample;
    }

    /**
     * The configured batch, or fewer chunks (at least one) when that many would take longer than the budget's share:
     * {@code sharers} batches (the embedding tasks of one stream thread) may all be embedded in one transaction.
     */
    synchronized int batchLimit(int configured, int sharers) {
        if (msPerChunk == 0) {
            return configured;
        }
        return (int) Math.max(1, Math.min(configured, Math.floor(budgetMs / (double) Math.max(1, sharers) / msPerChunk)));
    }
}
