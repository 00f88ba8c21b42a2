package org.chartstream.app.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
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
public record RunDataset(Dataset dataset, ChartstreamConfig config) {
    /** The file in the run directory that names the dataset its source database holds. */
    static final String MARKER = "dataset";

    /**
     * {@code config} with the configuration of the dataset a {@code run} loaded into its data directory, so that
     * {@code status} and {@code reindex} read the tables that run indexes; unchanged where no run named
     * a dataset.
     */
    public static ChartstreamConfig withRecordedDataset(ChartstreamConfig config) {
        return recorded(config.dataDir().resolve("run"))
                .map(name -> config.underlay(known(name, "dataset '" + name + "' named by " + config.dataDir().resolve("run").resolve(MARKER))
                        .configuration(), "dataset " + name))
                .orElse(config);
    }

    /**
     * The dataset called {@code name} (null: the one the data directory holds, else the synthetic one) under
     * {@code userConfig}; an unknown name is refused naming the known ones.
     */
    static RunDataset select(String name, ChartstreamConfig userConfig) {
        String chosen = name != null ? name : recorded(userConfig.dataDir().resolve("run")).orElse(SyntheticDataset.NAME);
        Dataset dataset = Datasets.named(chosen, () -> DemoCommand.generator(userConfig).generate(DemoCommand.spec(userConfig)))
                .orElseThrow(() -> unknown("--dataset '" + chosen + "'"));
        ChartstreamConfig config = userConfig.underlay(dataset.configuration(), "dataset " + dataset.name());
        if (!dataset.name().equals(SyntheticDataset.NAME)
                && config.sourceIds().stream().allMatch(id -> !config.sourceValue(id, "host").isEmpty())) {
            throw new ConfigException("--dataset " + chosen + " loads into the embedded PostgreSQL, but every source names a"
                    + " host (source.host): leave --dataset out to read that database, or the host out to run the dataset");
        }
        return new RunDataset(dataset, config);
    }

    private static Dataset known(String name, String what) {
        return Datasets.named(name, () -> null).orElseThrow(() -> unknown(what));
    }

    private static ConfigException unknown(String what) {
        return new ConfigException(what + " is not a dataset; known: " + String.join(", ", Datasets.names()));
    }

    /** The dataset named in {@code runDir}'s marker, if a run wrote one. */
    private static Optional<String> recorded(Path runDir) {
        Path marker = runDir.resolve(MARKER);
        try {
            return Files.exists(marker) ? Optional.of(Files.readString(marker, StandardCharsets.UTF_8).strip()) : Optional.empty();
        } catch (IOException e) {
            throw new ConfigException("cannot read " + marker + ": " + e.getMessage());
        }
    }

    /** Loads the dataset into a freshly created source database, saying what it loaded on {@code progress}. */
    PipelineRuntime.SourceLoader loader(Consumer<String> progress) {
        return c -> dataset.load(c, progress);
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
