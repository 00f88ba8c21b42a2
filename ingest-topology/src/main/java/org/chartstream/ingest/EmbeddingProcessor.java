package org.chartstream.ingest;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.ingest.embed.EmbeddingBuffer;
import org.chartstream.ingest.embed.EmbeddingPace;
import org.chartstream.ingest.embed.FlushRule;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.ingest.publish.IndexEvents;
import org.chartstream.ingest.status.EmbedProgress;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.unreadable.IndexEventRecords;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecordCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding task of one partition of the ingest repartition topic: index events without vectors (rows keyed by
 * row, generation markers on every partition) → {@link EmbeddingBuffer} → the index log, all to the index-log
 * partition with this task's number ({@link #indexChild}). The buffer is FIFO and a flush forwards the finished
 * events in order, so a marker leaves only after every row that came before it on this partition has been embedded
 * and forwarded: on each index-log partition the marker follows that partition's rows, as the materializer needs.
 * Flushes (from its punctuator only, so at most once per Streams loop) when a batch is full, when the input is quiet,
 * or at the latest after the linger time ({@link FlushRule}); the punctuator runs only while the buffer holds events
 * ({@link WorkPunctuation}), so an idle task asks for no transaction; each flush embeds one time-bounded slice, asks for a
 * commit, and announces this partition's progress. The embedding tasks of one process take turns on the model
 * ({@link EmbeddingPace}), and those on one stream thread share its transaction, which takes every flush made before
 * the next commit: each buffer's time budget is split over the tasks open in the process ({@code openTasks}), so
 * that a transaction stays inside its timeout however long its slices wait for the others'.
 *
 * <p>It reads bytes and decodes them itself ({@link IndexEventRecords}): a record that is not an index event it can
 * embed, written into the topic by anyone but the planner, is skipped and dead-lettered (stage
 * {@value #UNREADABLE_STAGE}, with its original key and bytes), so one record never stops the task.
 */
final class EmbeddingProcessor implements Processor<byte[], byte[], String, Object> {
    static final String UNREADABLE_STAGE = "ingest-embed";
    static final String DEAD_LETTER_CHILD = "embedding-dead-letters";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingProcessor.class);
    static final String BUFFER_STORE = "embedding-buffer";
    static final String PROGRESS_STORE = "embedding-progress";
    static final String PROGRESS_CHILD = "embedding-progress";
    private static final String INDEX_CHILD_PREFIX = "index-log-";

    private final PassageEmbedder embedder;
    private final FlushRule flushRule;
    private final String instance;
    private final AtomicInteger openTasks;
    private final EmbeddingPace pace;
    private final UnreadableRecordCounts unreadable;

    private ProcessorContext<String, Object> context;
    private EmbeddingBuffer buffer;
    private WorkPunctuation flushes;
    private KeyValueStore<String, String> progress;
    private int partition;

    /**
     * @param openTasks the embedding tasks open in this process, shared by all of them
     * @param pace      the model's pace, measured by all of them
     * @param unreadable where a skipped record is counted ({@code chartstream_unreadable_records_total})
     */
    EmbeddingProcessor(PassageEmbedder embedder, FlushRule flushRule, String instance, AtomicInteger openTasks, EmbeddingPace pace,
                       UnreadableRecordCounts unreadable) {
        this.unreadable = unreadable;
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
        flushes = new WorkPunctuation(context, flushRule.quiet(), () -> {
            if (buffer.flushDue()) {
                flush();
            }
            return !buffer.empty();
        });
        if (!buffer.empty()) {
            flushes.arm(); // events kept in the buffer before a restart
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        // vectors are added here: a row whose parts fit is all the task needs
        IndexEventRecords.Read read = IndexEventRecords.read(record.value(), e -> null);
        if (!read.readable()) {
            skip(record, read.problem());
            return;
        }
        if (read.event() == null) {
            return;
        }
        // Only the punctuator flushes: Kafka Streams runs it at most once per loop, after the loop's records and
        // before the loop's commit, so a transaction holds at most one embedding slice of this task. Flushing here
        // whenever the buffer is full could embed a slice per record of the loop in one transaction and outlive
        // the transaction timeout under load, after which the fenced task starts over and loses the slices.
        buffer.append(read.event());
        flushes.arm();
    }

    private void skip(Record<byte[], byte[]> record, String problem) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        UnreadableRecord skipped = new UnreadableRecord(meta == null ? "" : meta.topic(), meta == null ? -1 : meta.partition(),
                meta == null ? -1 : meta.offset(), record.key(), record.value(), UNREADABLE_STAGE, problem);
        LOG.warn(skipped.describe());
        unreadable.increment(skipped);
        long now = System.currentTimeMillis();
        context.forward(new Record<String, Object>(null, skipped.toDeadLetter(now), now), DEAD_LETTER_CHILD);
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
        Map<String, Map<Long, Long>> perTable = new TreeMap<>();
        buffer.flush(event -> {
            counts[0] += event.getChunks().size();
            counts[1]++;
            if (event.getKind() == IndexEventKind.UPSERT_ROW) {
                perTable.computeIfAbsent(new TableRef(event.getSourceId(), event.getTableName()).id(), t -> new TreeMap<>())
                        .merge(event.getGeneration(), (long) event.getChunks().size(), Long::sum);
            }
            context.forward(new Record<String, Object>(IndexEvents.key(event), event, now), indexChild(partition));
        });
        String key = EmbedProgress.key(partition);
        String kept = progress.get(key);
        EmbedProgress next = (kept == null ? EmbedProgress.none(partition) : EmbedProgress.decode(kept))
                .plus(counts[0], counts[1], perTable, instance, now);
        progress.put(key, next.encode());
        context.forward(new Record<String, Object>(key, next.toRecord(), now), PROGRESS_CHILD);
        context.commit();
    }
}
