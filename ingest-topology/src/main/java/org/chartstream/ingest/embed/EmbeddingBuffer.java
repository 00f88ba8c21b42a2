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
 * events a previous run left pending are flushed by this one. A flush embeds one time-bounded slice of the pending
 * chunks ({@link EmbeddingBatch}) and hands the finished events on in the order they were appended; the owner
 * flushes at most once per Streams loop (so that each transaction holds one slice per task), whenever
 * {@link #flushDue()} says the {@link FlushRule} is met.
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
    /**
     * Most events one slice takes. Events whose texts the process's {@link VectorCache} holds need no model call and
     * do not count towards a slice's {@link #batchChunks()}, so that rows sharing an embed text (every result of one
     * lab test) pass a thousand a transaction instead of a batch's worth; this bounds what one transaction carries
     * (about 2 kB an event with a 384-dimension vector).
     */
    static final int MAX_SLICE_EVENTS = 1024;

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

    /**
     * Embeds one slice of the pending chunks, in append order, and passes on (in append order) every event whose
     * chunks all have vectors and that no unfinished event precedes. A slice ends after {@link #batchChunks()} texts
     * the cache does not hold (at most {@link #MAX_SLICE_EVENTS} events)
     * or once it has taken this task's share of {@link #EMBEDDING_BUDGET}, even inside a row: one row may have more
     * chunks than the model embeds within the transaction (a note near {@code ingest.max-field-bytes} has about a
     * thousand), so a row is embedded over as many transactions as it needs, its vectors so far kept in the store.
     *
     * @return true when nothing is left pending
     */
    public boolean flush(Consumer<IndexEvent> forward) {
        int limit = batchChunks();
        // only the events the slice can reach are read: a backlog of long rows must not be read again for every slice
        List<KeyValue<Long, IndexEvent>> slice = new ArrayList<>();
        int reachable = 0;
        try (KeyValueIterator<Long, IndexEvent> it = store.all()) {
            while (it.hasNext() && slice.size() < MAX_SLICE_EVENTS) {
                KeyValue<Long, IndexEvent> kv = it.next();
                int chunks = EmbeddingBatch.uncachedChunks(kv.value, pace.vectors());
                if (reachable >= limit && chunks > 0) {
                    break;
                }
                slice.add(kv);
                reachable += chunks;
            }
        }
        if (slice.isEmpty()) {
            return true;
        }
        List<IndexEvent> events = slice.stream().map(kv -> kv.value).toList();
        int[] before = events.stream().mapToInt(EmbeddingBatch::pendingChunks).toArray();
        long sliceMs = EMBEDDING_BUDGET.toMillis() / Math.max(1, sharers.getAsInt());
        int[] filled = new int[1];
        long elapsedMs = pace.embed(sliceMs, timeUp -> filled[0] = EmbeddingBatch.embed(events, embedder, pace.vectors(), limit, timeUp));
        LOG.debug("embedded {} of {} pending chunks of {} events in {} ms", filled[0], pendingChunks, events.size(), elapsedMs);
        boolean passing = true;
        for (int i = 0; i < slice.size(); i++) {
            KeyValue<Long, IndexEvent> kv = slice.get(i);
            int left = EmbeddingBatch.pendingChunks(kv.value);
            passing &= left == 0;
            if (passing) {
                forward.accept(kv.value);
                store.delete(kv.key);
                pendingEvents--;
            } else if (left < before[i]) {
                store.put(kv.key, kv.value);
            }
        }
        pendingChunks -= filled[0];
        return pendingEvents == 0;
    }
}
