package org.chartstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class CaptureStartGateTest {
    private static final Duration SETTLE = Duration.ofSeconds(4);
    private final AtomicLong now = new AtomicLong(1_000);
    private final CaptureStartGate gate = new CaptureStartGate(now::get);

    @Test
    void capturesAtOnceWhenRunningAloneInTheGroup() {
        gate.onChange(State.REBALANCING, State.CREATED);
        assertThat(gate.decide(SETTLE, () -> false)).isNull();
        gate.onChange(State.RUNNING, State.REBALANCING);
        assertThat(gate.decide(SETTLE, () -> false)).isEqualTo(CaptureStartGate.Reason.RUNNING_ALONE);
    }

    @Test
    void withOtherInstancesWaitsUntilRunningLastedOneSettlePeriodAndARebalanceStartsItAgain() {
        gate.onChange(State.REBALANCING, State.CREATED);
        gate.onChange(State.RUNNING, State.REBALANCING);
        now.addAndGet(SETTLE.toNanos() - 1);
        assertThat(gate.decide(SETTLE, () -> true)).isNull();
        // the cooperative follow-up rebalance: the settle period counts again from the next RUNNING
        gate.onChange(State.REBALANCING, State.RUNNING);
        now.addAndGet(SETTLE.toNanos());
        assertThat(gate.decide(SETTLE, () -> true)).isNull();
        gate.onChange(State.RUNNING, State.REBALANCING);
        now.addAndGet(SETTLE.toNanos() - 1);
        assertThat(gate.decide(SETTLE, () -> true)).isNull();
        now.addAndGet(1);
        assertThat(gate.decide(SETTLE, () -> true)).isEqualTo(CaptureStartGate.Reason.SETTLED);
    }

    @Test
    void theGroupIsAskedOncePerPeriodOfRunning() {
        AtomicLong asked = new AtomicLong();
        BooleanSupplier others = () -> asked.incrementAndGet() > 0;
        gate.onChange(State.REBALANCING, State.CREATED);
        gate.onChange(State.RUNNING, State.REBALANCING);
        for (int i = 0; i < 5; i++) {
            assertThat(gate.decide(SETTLE, others)).isNull();
        }
        assertThat(asked).as("asked within the first period").hasValue(1);
        gate.onChange(State.REBALANCING, State.RUNNING);
        assertThat(gate.decide(SETTLE, others)).isNull();
        gate.onChange(State.RUNNING, State.REBALANCING);
        now.addAndGet(SETTLE.toNanos());
        assertThat(gate.decide(SETTLE, others)).isEqualTo(CaptureStartGate.Reason.SETTLED);
        assertThat(gate.decide(SETTLE, others)).isEqualTo(CaptureStartGate.Reason.SETTLED);
        assertThat(asked).as("asked again in the second period only").hasValue(2);
    }

    @Test
    void aStoppedOrFailedClientEndsTheWaitWithoutAskingTheGroup() {
        gate.onChange(State.PENDING_ERROR, State.REBALANCING);
        assertThat(gate.decide(SETTLE, () -> { throw new AssertionError("the group is asked only while running"); }))
                .isEqualTo(CaptureStartGate.Reason.STOPPED);
        gate.onChange(State.ERROR, State.PENDING_ERROR);
        assertThat(gate.decide(SETTLE, () -> true)).isEqualTo(CaptureStartGate.Reason.STOPPED);
    }

    @Test
    void awaitReturnsOnceTheStateArrivesAndTimesOutWhileStillRebalancing() throws Exception {
        CaptureStartGate real = new CaptureStartGate(System::nanoTime);
        real.onChange(State.REBALANCING, State.CREATED);
        assertThat(real.await(SETTLE, Duration.ofMillis(150), Duration.ofMillis(20), () -> true))
                .isEqualTo(CaptureStartGate.Reason.TIMED_OUT);
        Thread running = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            real.onChange(State.RUNNING, State.REBALANCING);
        });
        running.start();
        assertThat(real.await(SETTLE, Duration.ofSeconds(10), Duration.ofMillis(20), () -> false))
                .isEqualTo(CaptureStartGate.Reason.RUNNING_ALONE);
        running.join();
    }

    @Test
    void aStateChangeIsNotHeldUpWhileTheGroupIsAsked() throws Exception {
        gate.onChange(State.RUNNING, State.REBALANCING);
        java.util.concurrent.CountDownLatch asking = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
        Thread decider = new Thread(() -> gate.decide(SETTLE, () -> {
            asking.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }));
        decider.start();
        asking.await();
        Thread streamThread = new Thread(() -> gate.onChange(State.REBALANCING, State.RUNNING));
        streamThread.start();
        streamThread.join(2_000);
        boolean reported = !streamThread.isAlive();
        answer.countDown();
        decider.join();
        assertThat(reported).as("the state change returned while the group was being asked").isTrue();
        assertThat(gate.decide(SETTLE, () -> true)).isNull();
    }

    @Test
    void anotherInstanceIsAMemberNoneOfThisClientsThreadsOwns() {
        Set<String> own = Set.of("chartstream-ingest-a-StreamThread-1-consumer", "chartstream-ingest-a-StreamThread-2-consumer");
        assertThat(IngestGroupMembers.othersAmong(List.copyOf(own), own)).isFalse();
        assertThat(IngestGroupMembers.othersAmong(List.of("chartstream-ingest-a-StreamThread-1-consumer",
                "chartstream-ingest-b-StreamThread-1-consumer"), own)).isTrue();
        assertThat(IngestGroupMembers.othersAmong(List.of(), own)).isFalse();
    }
}
