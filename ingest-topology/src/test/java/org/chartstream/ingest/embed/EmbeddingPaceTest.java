package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EmbeddingPaceTest {
    private final EmbeddingPace pace = new EmbeddingPace(Duration.ofSeconds(4));

    @Test
    void beforeAnyFlushTheConfiguredBatchStands() {
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aFastModelKeepsTheConfiguredBatch() {
        pace.embedded(64, 1_300); // 50 chunks/s: 64 chunks take 1.3 s of the 4 s budget
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aSlowModelGetsBatchesThatFitTheBudget() {
        pace.embedded(64, 12_800); // 5 chunks/s (a loaded machine, a 512-token model): 64 chunks would take 12.8 s
        assertThat(pace.batchLimit(64, 1)).isEqualTo(20);
    }

    @Test
    void thePaceFollowsRecentFlushesAndNeverGoesBelowOneChunk() {
        pace.embedded(10, 100_000);
        assertThat(pace.batchLimit(64, 1)).isEqualTo(1);
        for (int i = 0; i < 20; i++) {
            pace.embedded(20, 400);
        }
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void flushesWithoutChunksDoNotCount() {
        pace.embedded(0, 50);
        assertThat(pace.batchLimit(64, 1)).isEqualTo(64);
    }

    @Test
    void aBudgetMustBePositive() {
        assertThatThrownBy(() -> new EmbeddingPace(Duration.ZERO)).hasMessageContaining("budget must be positive");
    }

    @Test
    void batchesThatShareOneTransactionShareTheBudget() {
        pace.embedded(10, 1_000); // 100 ms per chunk: 40 chunks fill the 4 s budget alone
        assertThat(pace.batchLimit(64, 1)).isEqualTo(40);
        assertThat(pace.batchLimit(64, 2)).isEqualTo(20);
        assertThat(pace.batchLimit(64, 0)).as("no other task open").isEqualTo(40);
    }

    @Test
    void modelCallsOfTheProcessRunOneAtATime() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] calls = new Future<?>[8];
            for (int i = 0; i < calls.length; i++) {
                calls[i] = threads.submit(() -> pace.embed(4_000, timeUp -> {
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    sleep(20);
                    running.decrementAndGet();
                    return 4;
                }));
            }
            for (Future<?> call : calls) {
                call.get(10, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(mostAtOnce).hasValue(1);
    }

    @Test
    void theTimeACallWaitsForAnotherIsNotThePace() throws Exception {
        AtomicLong clockMs = new AtomicLong();
        EmbeddingPace pace = new EmbeddingPace(Duration.ofSeconds(4), clockMs::get);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Thread first = new Thread(() -> pace.embed(4_000, timeUp -> {
            firstRunning.countDown();
            await(releaseFirst);
            return 0;
        }));
        first.start();
        firstRunning.await();
        Thread second = new Thread(() -> pace.embed(4_000, timeUp -> {
            clockMs.addAndGet(1_000);
            return 10;
        }));
        second.start();
        while (second.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        clockMs.addAndGet(10_000); // the second call waits 10 s for the first
        releaseFirst.countDown();
        first.join();
        second.join();
        assertThat(pace.batchLimit(64, 1)).as("100 ms per chunk, not 1.1 s").isEqualTo(40);
    }

    @Test
    void aCallIsTimedOnARunningClock() {
        EmbeddingPace real = new EmbeddingPace(Duration.ofSeconds(4));
        assertThat(real.embed(4_000, timeUp -> {
            sleep(30);
            return 1;
        })).as("not a clock cached before the call").isGreaterThanOrEqualTo(25);
    }

    @Test
    void aSliceIsToldWhenItsTimeIsSpentOnThePacesClockNotCountingTheWaitForTheLock() {
        AtomicLong clockMs = new AtomicLong(5_000);
        EmbeddingPace pace = new EmbeddingPace(Duration.ofSeconds(4), clockMs::get);
        List<Boolean> seen = new ArrayList<>();
        pace.embed(2_000, timeUp -> {
            seen.add(timeUp.getAsBoolean());
            clockMs.addAndGet(1_999);
            seen.add(timeUp.getAsBoolean());
            clockMs.addAndGet(1);
            seen.add(timeUp.getAsBoolean());
            return 2;
        });
        assertThat(seen).containsExactly(false, false, true);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
