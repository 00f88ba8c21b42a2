package org.chartstream.app.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chartstream.datasets.Dataset;
import org.chartstream.datasets.Datasets;
import org.chartstream.datasets.SyntheticDataset;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;

/**
 * The dataset {@code run --dataset} loads into the embedded source database, with the configuration it runs under:
 * the dataset's shipped configuration below the user's file and environment.
 */
record RunDataset(Dataset dataset, ChartstreamConfig config) {
    /** The file in the run directory that names the dataset its source database holds. */
    static final String MARKER = "dataset";

    /** The dataset called {@code name}; an unknown name is refused naming the known ones. */
    static RunDataset select(String name, ChartstreamConfig userConfig) {
        Dataset dataset = Datasets.named(name, () -> DemoCommand.generator(userConfig).generate(DemoCommand.spec(userConfig)))
                .orElseThrow(() -> new ConfigException("--dataset '" + name + "' is not a dataset; known: "
                        + String.join(", ", Datasets.names())));
        ChartstreamConfig config = userConfig.underlay(dataset.configuration(), "dataset " + dataset.name());
        if (!dataset.name().equals(SyntheticDataset.NAME)
                && config.sourceIds().stream().allMatch(id -> !config.sourceValue(id, "host").isEmpty())) {
            throw new ConfigException("--dataset " + name + " loads into the embedded PostgreSQL, but every source names a"
                    + " host (source.host): leave --dataset out to read that database, or the host out to run the dataset");
        }
        return new RunDataset(dataset, config);
    }

    /** Loads the dataset into a freshly created source database, with a progress line per table. */
    PipelineRuntime.SourceLoader loader() {
        return c -> dataset.load(c, RunCommand::progress);
    }

    /**
     * Claims {@code runDir} for this dataset: a run directory whose source database already holds another dataset is
     * refused (the database is loaded once, when it is created), one without a database is claimed anew. A directory
     * from before datasets had names holds the synthetic one.
     */
    void claim(Path runDir) throws IOException {
        Path marker = runDir.resolve(MARKER);
        if (Files.exists(runDir.resolve("postgres"))) {
            String held = Files.exists(marker) ? Files.readString(marker, StandardCharsets.UTF_8).strip() : SyntheticDataset.NAME;
            if (!held.equals(dataset.name())) {
                throw new ConfigException("--dataset " + dataset.name() + ": the source database under " + runDir
                        + " holds dataset " + held + "; use another data.dir, or delete " + runDir + " to start afresh");
            }
            return;
        }
        Files.createDirectories(runDir);
        Files.writeString(marker, dataset.name() + "\n", StandardCharsets.UTF_8);
    }

}
