package org.chartstream.ingest;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.ingest.embed.EmbeddingBuffer;
import org.chartstream.ingest.embed.EmbeddingPace;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.publish.IndexEvents;
import org.chartstream.ingest.status.EmbedProgress;
import org.chartstream.schemas.IndexEvent;

/**
 * The embedding task of one partition of the ingest repartition topic: index events without vectors (rows keyed by
 * row, generation markers on every partition) → {@link EmbeddingBuffer} → the index log, all to the index-log
 * partition with this task's number ({@link #indexChild}). The buffer is FIFO and a flush forwards every pending
 * event in order, so a marker leaves only after every row that came before it on this partition has been embedded
 * and forwarded: on each index-log partition the marker follows that partition's rows, as the materializer needs.
 * Flushes when a batch is full, when the input is quiet, or at the latest after the linger time ({@link FlushRule});
 * each flush asks for a commit, and announces this partition's progress. The embedding tasks of one process share
 * its stream thread, whose transaction takes every flush made before the next commit: each buffer's time budget is
 * split over the tasks open in the process ({@code openTasks}), so that together they stay inside the transaction
 * timeout.
 */
final class EmbeddingProcessor implements Processor<String, IndexEvent, String, Object> {
    static final String BUFFER_STORE = "embedding-buffer";
    static final String PROGRESS_STORE = "embedding-progress";
    static final String PROGRESS_CHILD = "embedding-progress";
    private static final String INDEX_CHILD_PREFIX = "index-log-";

    private final PassageEmbedder embedder;
    private final FlushRule flushRule;
    private final String instance;
    private final AtomicInteger openTasks;
    private final EmbeddingPace pace;

    private ProcessorContext<String, Object> context;
    private EmbeddingBuffer buffer;
    private KeyValueStore<String, String> progress;
    private int partition;

    /**
     * @param openTasks the embedding tasks open in this process, shared by all of them
     * @param pace      the model's pace, measured by all of them
     */
    EmbeddingProcessor(PassageEmbedder embedder, FlushRule flushRule, String instance, AtomicInteger openTasks, EmbeddingPace pace) {
        this.embedder = embedder;
        this.flushRule = flushRule;
        this.instance = instance;
        this.openTasks = openTasks;
        this.pace = pace;
    }

    /** The sink of index-log partition {@code partition}, written only by the embedding task of that number. */
    static String indexChild(int partition) {
        return INDEX_CHILD_PREFIX + partition;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        this.progress = context.getStateStore(PROGRESS_STORE);
        this.buffer = new EmbeddingBuffer(context.getStateStore(BUFFER_STORE), embedder, flushRule, context::currentSystemTimeMs,
                pace, openTasks::get);
        openTasks.incrementAndGet();
        context.schedule(flushRule.quiet(), PunctuationType.WALL_CLOCK_TIME, now -> {
            if (buffer.flushDue()) {
                flush();
            }
        });
    }

    @Override
    public void process(Record<String, IndexEvent> record) {
        buffer.append(record.value());
        if (buffer.full()) {
            flush();
        }
    }

    @Override
    public void close() {
        openTasks.decrementAndGet();
    }

    private void flush() {
        if (buffer.empty()) {
            return;
        }
        long now = System.currentTimeMillis();
        long[] counts = new long[2];
        buffer.flush(event -> {
            counts[0] += event.getChunks().size();
            counts[1]++;
            context.forward(new Record<String, Object>(IndexEvents.key(event), event, now), indexChild(partition));
        });
        String key = EmbedProgress.key(partition);
        String kept = progress.get(key);
        EmbedProgress next = (kept == null ? EmbedProgress.none(partition) : EmbedProgress.decode(kept))
                .plus(counts[0], counts[1], instance, now);
        progress.put(key, next.encode());
        context.forward(new Record<String, Object>(key, next.encode(), now), PROGRESS_CHILD);
        context.commit();
    }
}
