package org.chartstream.app.bench;

import org.chartstream.bench.IngestBench;
import org.chartstream.bench.PipelineBenchRuntime;
import org.chartstream.datasets.Dataset;
import org.chartstream.datasets.Datasets;
import org.chartstream.datasets.SyntheticDataset;
import org.chartstream.runtime.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code chartstream bench ingest}: snapshot throughput of the whole ingest path (Debezium → Kafka → normalise,
 * project, chunk, batch-embed → index log → store, committed and searchable), against the same model embedding the
 * same texts directly, in the same run.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = {"Start a fresh embedded pipeline on a dataset (default: the synthetic one), time its snapshot until",
                "every row is searchable, then embed the distinct texts the model read (chunk texts, or a table's embed",
                "fields) directly with the same model (same batch size) for the raw rate. JSON (the last stdout line):",
                "dataset, rows, chunks, rows_per_s, chunks_per_s, embed_texts (distinct texts the model read),",
                "raw_embed_chunks_per_s, ratio, seconds (wall time to searchable), raw_texts, raw_seconds, the one-minute",
                "load average at the start and when searchable, and the CPU seconds this JVM (pipeline, broker, store;",
                "PostgreSQL runs apart) used in each phase, in all and on its JIT compiler and GC threads: cpu_s",
                "(snapshot), raw_cpu_s (direct embedding)."})
public final class IngestBenchCommand extends BenchSubcommand {

    @Option(names = "--dataset", paramLabel = "NAME", description = "the dataset loaded into the fresh source: "
            + "synthetic (default) or mimic-iv-demo (its eight clinical tables, about 140k rows)")
    String dataset;

    @Option(names = "--patients", description = "synthetic patients (default: ${DEFAULT-VALUE})", defaultValue = "50")
    int patients;

    @Option(names = "--raw-texts", paramLabel = "N", description = "embed only the first N distinct texts directly "
            + "(default: all without --dataset, else 2000)")
    Integer rawTexts;

    @Option(names = "--json", description = "print the figures as one JSON object (the last stdout line)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        String name = dataset != null ? dataset : SyntheticDataset.NAME;
        Dataset chosen = Datasets.named(name, () -> PipelineBenchRuntime.dataset(config(), patients))
                .orElseThrow(() -> new ConfigException("--dataset '" + name + "' is not a dataset; known: "
                        + String.join(", ", Datasets.names())));
        IngestBench.Result result = IngestBench.run(config(), chosen, rawTexts != null ? rawTexts : dataset == null ? 0 : 2000);
        System.out.println(json ? result.json() : result.text());
        return 0;
    }
}
