package org.chartstream.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.connector.base.ChangeEventQueue;
import io.debezium.connector.mariadb.MariaDbConnectorTask;
import io.debezium.connector.postgresql.PostgresConnectorTask;
import io.debezium.pipeline.DataChangeEvent;
import io.debezium.util.LoggingContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class IdleQueueWaitTest {
    private static final Duration INTERVAL = Duration.ofMillis(10);

    /** Stands for a Debezium task: its change-event queue in a private field named as Debezium's tasks name it. */
    static final class TaskWithQueue {
        @SuppressWarnings("unused")
        private volatile ChangeEventQueue<DataChangeEvent> queue = new ChangeEventQueue.Builder<DataChangeEvent>()
                .pollInterval(INTERVAL).maxBatchSize(2048).maxQueueSize(8192)
                .loggingContextSupplier(() -> LoggingContext.forConnector("test", "test", "test")).build();

        List<SourceRecord> debeziumPoll() throws InterruptedException {
            return queue.poll().stream().map(DataChangeEvent::getRecord).toList();
        }
    }

    private static DataChangeEvent change(int n) {
        return new DataChangeEvent(new SourceRecord(Map.of(), Map.of(), "t", null, "row " + n));
    }

    @Test
    void onceTheSourceIsQuietDebeziumsPollIsCalledOncePerRecheckNotOncePerInterval() throws Exception {
        TaskWithQueue task = new TaskWithQueue();
        IdleQueueWait wait = IdleQueueWait.forTask(TaskWithQueue.class, Duration.ofMillis(200), Duration.ofMillis(100));
        AtomicInteger calls = new AtomicInteger();
        Thread.sleep(100);
        long start = System.nanoTime();
        while (System.nanoTime() - start < Duration.ofMillis(1000).toNanos()) {
            assertThat(wait.poll(task, () -> {
                calls.incrementAndGet();
                return task.debeziumPoll();
            })).isEmpty();
        }
        // Debezium's own loop calls it every 10-11 ms: about 90 times a second
        assertThat(calls.get()).isBetween(3, 6);
    }

    @Test
    void aChangeThatEndsAQuietSpellIsPolledWithinTheIntervalNotAfterTheRecheck() throws Exception {
        TaskWithQueue task = new TaskWithQueue();
        IdleQueueWait wait = IdleQueueWait.forTask(TaskWithQueue.class, Duration.ofSeconds(30), Duration.ZERO);
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(100);
                task.queue.enqueue(change(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long start = System.nanoTime();
        List<SourceRecord> polled = wait.poll(task, task::debeziumPoll);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        producer.join();
        assertThat(polled).extracting(SourceRecord::value).containsExactly("row 1");
        assertThat(tookMs).isBetween(100L, 2_000L);
    }

    @Test
    void whileChangesKeepComingAnEmptyQueueIsPolledAsDebeziumDoes() throws Exception {
        TaskWithQueue task = new TaskWithQueue();
        IdleQueueWait wait = IdleQueueWait.forTask(TaskWithQueue.class, Duration.ofSeconds(30), Duration.ofSeconds(30));
        task.queue.enqueue(change(1));
        assertThat(wait.poll(task, task::debeziumPoll)).hasSize(1);
        long start = System.nanoTime();
        // a change came just now: no wait for the next, Debezium's poll gives up after its interval
        assertThat(wait.poll(task, task::debeziumPoll)).isEmpty();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000L);
    }

    @Test
    void anErrorTheCaptureThreadLeftOnAnEmptyQueueStillReachesThePoller() {
        TaskWithQueue task = new TaskWithQueue();
        IdleQueueWait wait = IdleQueueWait.forTask(TaskWithQueue.class, Duration.ofMillis(50), Duration.ZERO);
        task.queue.producerException(new IllegalStateException("replication connection lost"));
        assertThatThrownBy(() -> wait.poll(task, task::debeziumPoll)).hasMessageContaining("replication connection lost");
    }

    @Test
    void aTaskWithoutAReadableQueueIsPolledAtOnce() throws Exception {
        IdleQueueWait wait = IdleQueueWait.forTask(String.class);
        assertThat(wait.seesQueue()).isFalse();
        long start = System.nanoTime();
        assertThat(wait.poll("not a task", List::of)).isEmpty();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(200);
    }

    @Test
    void theDebeziumTasksRunByTheEmbeddedEngineHaveTheQueueThisWaitReads() {
        assertThat(IdleQueueWait.forTask(PostgresConnectorTask.class).seesQueue()).isTrue();
        assertThat(IdleQueueWait.forTask(MariaDbConnectorTask.class).seesQueue()).isTrue();
        assertThat(new IdleWaitingPostgresConnector().taskClass()).isEqualTo(IdleWaitingPostgresConnector.Task.class);
        assertThat(new IdleWaitingMariaDbConnector().taskClass()).isEqualTo(IdleWaitingMariaDbConnector.Task.class);
        assertThat(SourceKind.POSTGRES.embeddedConnectorClass()).isEqualTo(IdleWaitingPostgresConnector.class.getName());
        assertThat(SourceKind.MARIADB.embeddedConnectorClass()).isEqualTo(IdleWaitingMariaDbConnector.class.getName());
    }

    @Test
    void aRecheckMustBePositiveAndTheQuietTimeNotNegative() {
        assertThatThrownBy(() -> IdleQueueWait.forTask(TaskWithQueue.class, Duration.ZERO, Duration.ZERO)).hasMessageContaining("recheck");
        assertThatThrownBy(() -> IdleQueueWait.forTask(TaskWithQueue.class, Duration.ofMillis(1), Duration.ofMillis(-1)))
                .hasMessageContaining("quiet");
    }
}
