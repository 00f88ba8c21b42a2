package org.chartstream.query.reply;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.test.TestRecord;
import org.chartstream.schemas.ReplyEvent;

/**
 * A {@link ReplySender} that keeps what it is handed, per topic, and acknowledges each send at once, unless told to
 * hold the acknowledgements (then they wait for {@link #acknowledgeHeld}) or to fail the next sends.
 */
public final class RecordingReplySender implements ReplySender {
    private final Map<String, Deque<TestRecord<String, ReplyEvent>>> byTopic = new HashMap<>();
    private final List<Sent> all = new ArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding;
    private int failing;

    /** One send, in order. */
    public record Sent(String topic, ReplyEvent event) {
    }

    @Override
    public synchronized void send(String topic, ReplyEvent event, Headers headers, Consumer<Exception> delivered) {
        if (failing > 0) {
            failing--;
            delivered.accept(new IllegalStateException("broker unavailable"));
            return;
        }
        byTopic.computeIfAbsent(topic, t -> new ArrayDeque<>()).addLast(new TestRecord<>(event.getRequestId(), event, headers));
        all.add(new Sent(topic, event));
        if (holding) {
            held.add(() -> delivered.accept(null));
        } else {
            delivered.accept(null);
        }
    }

    /** From now on, deliveries are acknowledged only by {@link #acknowledgeHeld}. */
    public synchronized void holdAcknowledgements() {
        holding = true;
    }

    /** Acknowledges every held delivery and stops holding. */
    public void acknowledgeHeld() {
        List<Runnable> acks;
        synchronized (this) {
            holding = false;
            acks = new ArrayList<>(held);
            held.clear();
        }
        acks.forEach(Runnable::run);
    }

    /** The next {@code sends} sends fail (nothing reaches the topic). */
    public synchronized void failNext(int sends) {
        failing = sends;
    }

    /** Every send since the last call, in order, with its topic. */
    public synchronized List<Sent> takeAll() {
        List<Sent> out = List.copyOf(all);
        all.clear();
        return out;
    }

    /** What was sent to {@code topic}, read like a test output topic: each read takes the records it returns. */
    public Topic topic(String topic) {
        return new Topic(topic);
    }

    /** Reads away everything sent so far, on every topic. */
    public synchronized void clear() {
        byTopic.clear();
        all.clear();
    }

    /** The replies sent to one topic. */
    public final class Topic {
        private final String name;

        private Topic(String name) {
            this.name = name;
        }

        public List<TestRecord<String, ReplyEvent>> readRecordsToList() {
            synchronized (RecordingReplySender.this) {
                Deque<TestRecord<String, ReplyEvent>> records = byTopic.getOrDefault(name, new ArrayDeque<>());
                List<TestRecord<String, ReplyEvent>> out = List.copyOf(records);
                records.clear();
                return out;
            }
        }

        public List<ReplyEvent> readValuesToList() {
            return readRecordsToList().stream().map(TestRecord::value).toList();
        }

        public boolean isEmpty() {
            synchronized (RecordingReplySender.this) {
                return byTopic.getOrDefault(name, new ArrayDeque<>()).isEmpty();
            }
        }
    }
}
