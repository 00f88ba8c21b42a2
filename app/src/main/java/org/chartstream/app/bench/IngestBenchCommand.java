package org.chartstream.app.bench;

import org.chartstream.bench.IngestBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
public final class IngestBenchCommand extends BenchSubcommand {

    @Option(names = "--patients", description = "synthetic patients (default: ${DEFAULT-VALUE})", defaultValue = "50")
    int patients;

    @Option(names = "--json", description = "print the figures as one JSON object (the last stdout line)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        IngestBench.Result result = IngestBench.run(config(), patients);
        System.out.println(json ? result.json() : result.text());
        return 0;
    }
}
