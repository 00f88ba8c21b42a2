package org.chartstream.ingest.embed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.schemas.IndexEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index events waiting for their vectors, in append order, in a changelogged store: a crash loses none, and the
 * events a previous run left pending are flushed by this one. A flush embeds every pending chunk with one model call
 * ({@link EmbeddingBatch}) and hands the events on in the order they were appended; the owner flushes when
 * {@link #full()} and whenever {@link #flushDue()} says the {@link FlushRule} is met.
 */
public final class EmbeddingBuffer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingBuffer.class);
    /**
     * Longest time one embedding call should take: a flush runs inside the ingest's Streams transaction, which must
     * commit within Kafka Streams' transaction timeout (10 s under exactly-once), with room for the sends, the commit
     * and a call slower than the last ones measured. (A longer timeout is no remedy: it also keeps a killed run's
     * open transaction blocking read_committed readers that much longer, and RunCrashRestartIT's restarted run did
     * not answer in time with 30 s.)
     */
    public static final Duration EMBEDDING_BUDGET = Duration.ofSeconds(4);

    private final KeyValueStore<Long, IndexEvent> store;
    private final PassageEmbedder embedder;
    private final FlushRule rule;
    private final LongSupplier clockMs;
    private final IntSupplier sharers;
    private final EmbeddingPace pace;
    private long nextSeq;
    private int pendingEvents;
    private int pendingChunks;
    private long firstPendingMs;
    private long lastAppendMs;

    /**
     * @param rule    when pending events go out
     * @param clockMs wall clock in ms for the flush rule's ages (events a previous run left pending count as appended when
     *                this buffer opens)
     * @param pace    the model's measured pace, shared by the process's buffers (budget {@link #EMBEDDING_BUDGET})
     * @param sharers how many buffers' flushes may fall into one transaction (the embedding tasks of the process:
     *                those on one stream thread commit together, and every call waits for the others' calls on the
     *                model): each flush gets that share of the time budget
     */
    public EmbeddingBuffer(KeyValueStore<Long, IndexEvent> store, PassageEmbedder embedder, FlushRule rule, LongSupplier clockMs,
                           EmbeddingPace pace, IntSupplier sharers) {
        this.store = store;
        this.embedder = embedder;
        this.rule = rule;
        this.clockMs = clockMs;
        this.sharers = sharers;
        this.pace = pace;
        this.firstPendingMs = clockMs.getAsLong();
        this.lastAppendMs = firstPendingMs;
        try (KeyValueIterator<Long, IndexEvent> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Long, IndexEvent> kv = it.next();
                nextSeq = Math.max(nextSeq, kv.key + 1);
                pendingEvents++;
                pendingChunks += EmbeddingBatch.pendingChunks(kv.value);
            }
        }
    }

    /** Chunks the next flush should take at most: the rule's batch, or fewer when the model is slow. */
    public int batchChunks() {
        return pace.batchLimit(rule.batchChunks(), sharers.getAsInt());
    }

    public void append(IndexEvent event) {
        long now = clockMs.getAsLong();
        if (pendingEvents == 0) {
            firstPendingMs = now;
        }
        lastAppendMs = now;
        store.put(nextSeq++, event);
        pendingEvents++;
        pendingChunks += EmbeddingBatch.pendingChunks(event);
    }

    /** True once a batch's worth of chunks is pending. */
    public boolean full() {
        return pendingChunks >= batchChunks();
    }

    /** True when nothing is pending. */
    public boolean empty() {
        return pendingEvents == 0;
    }

    /** True when the pending events should go out now ({@link FlushRule#due}). */
    public boolean flushDue() {
        long now = clockMs.getAsLong();
        return full() || rule.due(pendingEvents, pendingChunks, now - firstPendingMs, now - lastAppendMs);
    }

    /** Embeds the pending chunks and passes every pending event, in append order, to {@code forward}. */
    public void flush(Consumer<IndexEvent> forward) {
        List<KeyValue<Long, IndexEvent>> pending = new ArrayList<>();
        try (KeyValueIterator<Long, IndexEvent> it = store.all()) {
            it.forEachRemaining(pending::add);
        }
        if (pending.isEmpty()) {
            return;
        }
        List<IndexEvent> events = pending.stream().map(kv -> kv.value).toList();
        long elapsedMs = pace.embed(pendingChunks, () -> EmbeddingBatch.embed(events, embedder));
        LOG.debug("embedded {} pending chunks of {} events in {} ms", pendingChunks, events.size(), elapsedMs);
        for (KeyValue<Long, IndexEvent> kv : pending) {
            forward.accept(kv.value);
            store.delete(kv.key);
        }
        pendingEvents = 0;
        pendingChunks = 0;
    }
}
