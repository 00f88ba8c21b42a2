package org.chartstream.app.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code chartstream bench ingest}: snapshot throughput of the whole ingest path (Debezium → Kafka → normalise,
 * project, chunk, batch-embed → index log → store, committed and searchable), against the same model embedding the
 * same chunk texts directly, in the same run.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = {"Start a fresh embedded pipeline on the synthetic dataset, time its snapshot until every row is",
                "searchable, then embed the same chunk texts directly with the same model (same batch size) for the",
                "raw rate. JSON: rows, chunks, chunks_per_s, raw_embed_chunks_per_s, ratio, seconds, raw_seconds, and the",
                "CPU seconds this JVM (pipeline, broker, store; PostgreSQL runs apart) used in each phase, in all and on",
                "its JIT compiler and GC threads: cpu_s (snapshot), raw_cpu_s (direct embedding)."})
public final class IngestBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--patients", description = "synthetic patients (default: ${DEFAULT-VALUE})", defaultValue = "50")
    int patients;

    @Option(names = "--json", description = "print the figures as one JSON object (the last stdout line)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = PipelineBenchRuntime.config(spec);
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
            double pipelineRate = chunks / seconds;
            double rawRate = texts.size() / rawSeconds;
            PipelineBenchRuntime.progress(String.format(Locale.ROOT, "%d rows, %d chunks searchable in %.1f s; %d texts embedded directly in %.1f s",
                    rows, chunks, seconds, texts.size(), rawSeconds));
            System.out.println(json
                    ? String.format(Locale.ROOT, "{\"rows\":%d, \"chunks\":%d, \"chunks_per_s\":%.1f, \"raw_embed_chunks_per_s\":%.1f, \"ratio\":%.2f,"
                                    + " \"seconds\":%.1f, \"raw_seconds\":%.1f, \"cpu_s\":%s, \"raw_cpu_s\":%s}",
                            rows, chunks, pipelineRate, rawRate, pipelineRate / rawRate, seconds, rawSeconds,
                            ProcessCpu.jsonBetween(cpu0, cpu1), ProcessCpu.jsonBetween(cpu1, cpu2))
                    : String.format(Locale.ROOT, "rows %d, chunks %d, pipeline %.1f chunks/s, raw embedding %.1f chunks/s, ratio %.2f",
                            rows, chunks, pipelineRate, rawRate, pipelineRate / rawRate));
        }
        return 0;
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
