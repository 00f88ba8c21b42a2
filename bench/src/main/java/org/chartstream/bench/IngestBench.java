package org.chartstream.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.chartstream.datasets.Dataset;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * {@code bench ingest}: snapshot throughput of the whole ingest path (Debezium → Kafka → normalise, project, chunk,
 * batch-embed → index log → store, committed and searchable) on a dataset, against the same model embedding the same
 * texts directly, in the same run. The texts the model reads are the distinct embed texts: a row's chunk text, or the
 * fields its table's embedding policy names (rows sharing them share one vector and one model call).
 */
public final class IngestBench {
    /**
     * The figures of one run; CPU as read before the snapshot, after it, and after the direct embedding; the system's
     * one-minute load average when the snapshot started and when it was searchable.
     *
     * @param texts      distinct texts the model read (embed texts)
     * @param rawTexts   how many of them were embedded again directly (all, or the sample asked for)
     */
    public record Result(String dataset, long rows, long chunks, double seconds, int texts, int rawTexts, double rawSeconds,
                         Optional<ProcessCpu> cpuStart, Optional<ProcessCpu> cpuSearchable, Optional<ProcessCpu> cpuEnd,
                         double loadStart, double loadSearchable) {
        public double pipelineRate() {
            return chunks / seconds;
        }

        public double rowRate() {
            return rows / seconds;
        }

        public double rawRate() {
            return rawTexts / rawSeconds;
        }

        public String json() {
            return String.format(Locale.ROOT, "{\"dataset\":\"%s\", \"rows\":%d, \"chunks\":%d, \"rows_per_s\":%.1f,"
                            + " \"chunks_per_s\":%.1f, \"embed_texts\":%d, \"raw_embed_chunks_per_s\":%.1f, \"ratio\":%.2f,"
                            + " \"seconds\":%.1f, \"raw_texts\":%d, \"raw_seconds\":%.1f, \"load_avg_start\":%.2f,"
                            + " \"load_avg_searchable\":%.2f, \"cpu_s\":%s, \"raw_cpu_s\":%s}",
                    dataset, rows, chunks, rowRate(), pipelineRate(), texts, rawRate(), pipelineRate() / rawRate(), seconds,
                    rawTexts, rawSeconds, loadStart, loadSearchable,
                    ProcessCpu.jsonBetween(cpuStart, cpuSearchable), ProcessCpu.jsonBetween(cpuSearchable, cpuEnd));
        }

        public String text() {
            return String.format(Locale.ROOT, "%s: rows %d, chunks %d in %.1f s (%.1f rows/s, %.1f chunks/s), %d distinct embed"
                            + " texts, raw embedding %.1f texts/s, ratio %.2f",
                    dataset, rows, chunks, seconds, rowRate(), pipelineRate(), texts, rawRate(), pipelineRate() / rawRate());
        }
    }

    private IngestBench() {
    }

    /**
     * A fresh embedded pipeline on {@code dataset} (its configuration under {@code config}), timed until searchable,
     * then the raw embedding of {@code rawSample} of the distinct embed texts (0: all of them).
     */
    public static Result run(ChartstreamConfig config, Dataset dataset, int rawSample) throws Exception {
        ChartstreamConfig run = config.underlay(dataset.configuration(), "dataset " + dataset.name());
        try (PipelineRuntime runtime = PipelineBenchRuntime.start(run, "bench-ingest",
                c -> dataset.load(c, PipelineBenchRuntime::progress))) {
            OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            double load0 = os.getSystemLoadAverage();
            Optional<ProcessCpu> cpu0 = ProcessCpu.self();
            long t0 = System.nanoTime();
            runtime.awaitSearchable(Duration.ofMinutes(60));
            double seconds = (System.nanoTime() - t0) / 1e9;
            double load1 = os.getSystemLoadAverage();
            Optional<ProcessCpu> cpu1 = ProcessCpu.self();
            long rows = runtime.indexedRowCounts().values().stream().mapToLong(Long::longValue).sum();
            long chunks = runtime.store().chunkCount();
            List<String> texts = embedTexts(runtime.bootstrapServers());
            List<String> raw = rawSample > 0 && rawSample < texts.size() ? texts.subList(0, rawSample) : texts;
            int batch = (int) run.integer("ingest.batch-chunks");
            long r0 = System.nanoTime();
            for (int i = 0; i < raw.size(); i += batch) {
                runtime.model().embedPassages(raw.subList(i, Math.min(raw.size(), i + batch)));
            }
            double rawSeconds = (System.nanoTime() - r0) / 1e9;
            Optional<ProcessCpu> cpu2 = ProcessCpu.self();
            PipelineBenchRuntime.progress(String.format(Locale.ROOT, "%d rows, %d chunks searchable in %.1f s; %d of %d embed texts"
                            + " embedded directly in %.1f s", rows, chunks, seconds, raw.size(), texts.size(), rawSeconds));
            return new Result(dataset.name(), rows, chunks, seconds, texts.size(), raw.size(), rawSeconds, cpu0, cpu1, cpu2,
                    load0, load1);
        }
    }

    /**
     * The distinct texts the ingest topology had the model read: of each row event in the index log (read to its
     * end), its embed text, or each chunk's own text where it has none.
     */
    static List<String> embedTexts(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        Set<String> texts = new LinkedHashSet<>();
        try (KafkaConsumer<String, IndexEvent> consumer = new KafkaConsumer<>(p, new StringDeserializer(), AvroSerde.of(IndexEvent.class))) {
            List<TopicPartition> tps = consumer.partitionsFor(Topics.INDEX, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            var end = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, IndexEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    IndexEvent e = r.value();
                    if (e.getKind() == IndexEventKind.UPSERT_ROW && e.getEmbedText() != null) {
                        texts.add(e.getEmbedText());
                    } else if (e.getKind() == IndexEventKind.UPSERT_ROW) {
                        for (ChunkRecord c : e.getChunks()) {
                            texts.add(c.getText());
                        }
                    }
                }
            }
        }
        return new ArrayList<>(texts);
    }
}
