package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.chartstream.app.InProcessCli;
import org.chartstream.datasets.Datasets;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --dataset}: which dataset, under which configuration, into which run directory. */
class RunDatasetTest {

    @Test
    void anUnknownDatasetIsRefusedNamingTheKnownOnes(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("user.properties"), "data.dir=" + dir + "\n");
        InProcessCli run = InProcessCli.run("--config", file.toString(), "run", "--dataset", "mimic-iii");
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("--dataset 'mimic-iii'").contains(String.join(", ", Datasets.names()));
    }

    @Test
    void theMimicDatasetBringsItsSourceConfigurationUnderTheUsers(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("user.properties"), "source.tables=patients,admissions\n");
        RunDataset mimic = RunDataset.select("mimic-iv-demo", ChartstreamConfig.load(file, Map.of()));
        assertThat(mimic.config().string("source.schema")).isEqualTo("mimiciv_hosp");
        assertThat(mimic.config().list("source.patient-name-columns")).isEmpty();
        assertThat(mimic.config().tables()).as("the user's file wins").containsExactly("patients", "admissions");
        RunDataset synthetic = RunDataset.select("synthetic", ChartstreamConfig.defaults());
        assertThat(synthetic.config().describe()).isEqualTo(ChartstreamConfig.defaults().describe());
    }

    @Test
    void aDatasetNeedsTheEmbeddedSource() {
        ChartstreamConfig external = ChartstreamConfig.defaults().with("source.host", "db.example");
        assertThatThrownBy(() -> RunDataset.select("mimic-iv-demo", external)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.host");
        assertThat(RunDataset.select("synthetic", external).dataset().name()).isEqualTo("synthetic");
    }

    @Test
    void aRunDirectoryHoldsOneDatasetAndOneFromBeforeDatasetsHadNamesHoldsTheSynthetic(@TempDir Path dir) throws Exception {
        RunDataset mimic = RunDataset.select("mimic-iv-demo", ChartstreamConfig.defaults());
        RunDataset synthetic = RunDataset.select("synthetic", ChartstreamConfig.defaults());
        Path run = dir.resolve("run");
        mimic.claim(run);
        Files.createDirectories(run.resolve("postgres"));
        mimic.claim(run);
        assertThatThrownBy(() -> synthetic.claim(run)).hasMessageContaining("holds dataset mimic-iv-demo");

        Path old = dir.resolve("old");
        Files.createDirectories(old.resolve("postgres"));
        synthetic.claim(old);
        assertThatThrownBy(() -> mimic.claim(old)).hasMessageContaining("holds dataset synthetic");
    }

    @Test
    void theOtherCommandsReadTheConfigurationOfTheDatasetTheDataDirectoryHolds(@TempDir Path dir) throws Exception {
        ChartstreamConfig user = ChartstreamConfig.defaults().with("data.dir", dir.toString());
        assertThat(RunDataset.withRecordedDataset(user).describe()).isEqualTo(user.describe());
        RunDataset.select("mimic-iv-demo", user).claim(dir.resolve("run"));
        assertThat(RunDataset.withRecordedDataset(user).string("source.schema")).isEqualTo("mimiciv_hosp");
        assertThat(RunDataset.select(null, user).dataset().name()).as("run without --dataset resumes it").isEqualTo("mimic-iv-demo");
        assertThat(RunDataset.select(null, ChartstreamConfig.defaults().with("data.dir", dir.resolve("fresh").toString()))
                .dataset().name()).isEqualTo("synthetic");

        Files.writeString(dir.resolve("run").resolve(RunDataset.MARKER), "mimic-iii\n");
        assertThatThrownBy(() -> RunDataset.withRecordedDataset(user)).hasMessageContaining("mimic-iii")
                .hasMessageContaining(dir.resolve("run").resolve(RunDataset.MARKER).toString());
    }

    @Test
    void runHelpExplainsEveryDataset() {
        InProcessCli help = InProcessCli.run("run", "--help");
        assertThat(help.out()).contains("--dataset=NAME");
        for (String name : Datasets.names()) {
            assertThat(help.out()).contains(name + ":");
        }
    }
}
