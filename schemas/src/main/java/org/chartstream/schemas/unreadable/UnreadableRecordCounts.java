package org.chartstream.schemas.unreadable;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** How many records each reader skipped on each topic, for {@code chartstream_unreadable_records_total}. */
public final class UnreadableRecordCounts {
    /** One reader of one topic. */
    public record Source(String topic, String consumer) implements Comparable<Source> {
        @Override
        public int compareTo(Source o) {
            int byTopic = topic.compareTo(o.topic);
            return byTopic != 0 ? byTopic : consumer.compareTo(o.consumer);
        }
    }

    private final Map<Source, AtomicLong> counts = new ConcurrentHashMap<>();

    /** Makes the pair known with a count of 0, so that its meter exists before the first skipped record. */
    public void register(String topic, String consumer) {
        counter(new Source(topic, consumer));
    }

    public void increment(UnreadableRecord r) {
        counter(new Source(r.topic(), r.consumer())).incrementAndGet();
    }

    /** The live counter of one pair (created at 0 if unknown). */
    public AtomicLong counter(Source source) {
        return counts.computeIfAbsent(source, s -> new AtomicLong());
    }

    /** Every known pair with its count now, sorted. */
    public Map<Source, Long> snapshot() {
        Map<Source, Long> out = new TreeMap<>();
        counts.forEach((s, n) -> out.put(s, n.get()));
        return out;
    }
}
