package org.chartstream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetGenerator;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;

/** Shared by the pipeline benchmarks: configuration, the synthetic dataset, a fresh embedded pipeline. */
public final class PipelineBenchRuntime {
    private PipelineBenchRuntime() {
    }

    public static ClinicalDataset dataset(ChartstreamConfig config, int patients) {
        DatasetSpec spec = DatasetSpec.defaults().withSeed(config.integer("dataset.seed")).withPatients(patients);
        String aciBench = config.string("dataset.aci-bench-dir");
        if (!aciBench.isEmpty()) {
            spec = spec.withAciBenchDir(Path.of(aciBench));
        }
        return new ClinicalDatasetGenerator(config.dataDir().resolve("cache"), PipelineBenchRuntime::progress).generate(spec);
    }

    /** A pipeline started from scratch under {@code <data.dir>/<name>} on the dataset. */
    public static PipelineRuntime start(ChartstreamConfig config, String name, ClinicalDataset dataset) throws IOException {
        return start(config, name, c -> ClinicalDatasetLoader.load(c, dataset));
    }

    /** A pipeline started from scratch under {@code <data.dir>/<name>}, its source filled by {@code loader}. */
    public static PipelineRuntime start(ChartstreamConfig config, String name, PipelineRuntime.SourceLoader loader) throws IOException {
        Path dir = config.dataDir().resolve(name);
        deleteRecursively(dir);
        return PipelineRuntime.start(config, dir, loader, PipelineBenchRuntime::progress);
    }

    public static void progress(String line) {
        System.err.println("[bench] " + line);
    }

    public static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** Deletes {@code dir} and everything under it; a file that goes meanwhile (a merge's) is no error. */
    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
