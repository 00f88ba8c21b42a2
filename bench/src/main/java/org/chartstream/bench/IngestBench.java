package org.chartstream.bench;

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
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.ChunkRecord;
import org.chartstream.schemas.IndexEvent;
import org.chartstream.schemas.IndexEventKind;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * {@code bench ingest}: snapshot throughput of the whole ingest path (Debezium → Kafka → normalise, project, chunk,
 * batch-embed → index log → store, committed and searchable), against the same model embedding the same chunk texts
 * directly, in the same run.
 */
public final class IngestBench {
    /** The figures of one run; CPU as read before the snapshot, after it, and after the direct embedding. */
    public record Result(long rows, long chunks, double seconds, int texts, double rawSeconds, Optional<ProcessCpu> cpuStart,
                         Optional<ProcessCpu> cpuSearchable, Optional<ProcessCpu> cpuEnd) {
        public double pipelineRate() {
            return chunks / seconds;
        }

        public double rawRate() {
            return texts / rawSeconds;
        }

        public String json() {
            return String.format(Locale.ROOT, "{\"rows\":%d, \"chunks\":%d, \"chunks_per_s\":%.1f, \"raw_embed_chunks_per_s\":%.1f, \"ratio\":%.2f,"
                            + " \"seconds\":%.1f, \"raw_seconds\":%.1f, \"cpu_s\":%s, \"raw_cpu_s\":%s}",
                    rows, chunks, pipelineRate(), rawRate(), pipelineRate() / rawRate(), seconds, rawSeconds,
                    ProcessCpu.jsonBetween(cpuStart, cpuSearchable), ProcessCpu.jsonBetween(cpuSearchable, cpuEnd));
        }

        public String text() {
            return String.format(Locale.ROOT, "rows %d, chunks %d, pipeline %.1f chunks/s, raw embedding %.1f chunks/s, ratio %.2f",
                    rows, chunks, pipelineRate(), rawRate(), pipelineRate() / rawRate());
        }
    }

    private IngestBench() {
    }

    /** A fresh embedded pipeline on {@code patients} synthetic patients, timed until searchable, then the raw embedding. */
    public static Result run(ChartstreamConfig config, int patients) throws Exception {
        ClinicalDataset dataset = PipelineBenchRuntime.dataset(config, patients);
        try (PipelineRuntime runtime = PipelineBenchRuntime.start(config, "bench-ingest", dataset)) {
            Optional<ProcessCpu> cpu0 = ProcessCpu.self();
            long t0 = System.nanoTime();
            runtime.awaitSearchable(Duration.ofMinutes(60));
            double seconds = (System.nanoTime() - t0) / 1e9;
            Optional<ProcessCpu> cpu1 = ProcessCpu.self();
            long rows = runtime.indexedRowCounts().values().stream().mapToLong(Long::longValue).sum();
            long chunks = runtime.store().chunkCount();
            List<String> texts = chunkTexts(runtime.bootstrapServers());
            int batch = (int) config.integer("ingest.batch-chunks");
            long r0 = System.nanoTime();
            for (int i = 0; i < texts.size(); i += batch) {
                runtime.model().embedPassages(texts.subList(i, Math.min(texts.size(), i + batch)));
            }
            double rawSeconds = (System.nanoTime() - r0) / 1e9;
            Optional<ProcessCpu> cpu2 = ProcessCpu.self();
            PipelineBenchRuntime.progress(String.format(Locale.ROOT, "%d rows, %d chunks searchable in %.1f s; %d texts embedded directly in %.1f s",
                    rows, chunks, seconds, texts.size(), rawSeconds));
            return new Result(rows, chunks, seconds, texts.size(), rawSeconds, cpu0, cpu1, cpu2);
        }
    }

    /** The distinct chunk texts the ingest topology embedded (the index log's row events, read to its end). */
    static List<String> chunkTexts(String bootstrap) {
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
                    if (r.value().getKind() == IndexEventKind.UPSERT_ROW) {
                        for (ChunkRecord c : r.value().getChunks()) {
                            texts.add(c.getText());
                        }
                    }
                }
            }
        }
        return new ArrayList<>(texts);
    }
}
