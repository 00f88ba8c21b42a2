package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dataset's configuration lies under the user's: it fills the keys file and environment leave unset, no others. */
class ConfigUnderlayTest {
    private static final Map<String, String> DATASET = Map.of("source.schema", "clinic", "source.tables", "visits,people",
            "source.patient-name-columns", "", "source.fields.visits", "reason");

    @Test
    void theDatasetFillsEveryKeyTheUserLeftAtItsDefaultAndSaysWhereTheValueCameFrom() {
        ChartstreamConfig c = ChartstreamConfig.defaults().underlay(DATASET, "dataset clinic");
        assertThat(c.string("source.schema")).isEqualTo("clinic");
        assertThat(c.tables()).containsExactly("visits", "people");
        assertThat(c.list("source.patient-name-columns")).isEmpty();
        assertThat(c.allowedFields("ehr", "visits")).containsExactly("reason");
        assertThat(c.describe().get("source.schema")).endsWith("(dataset clinic)");
    }

    @Test
    void theUsersFileAndEnvironmentOverrideTheDataset(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("user.properties"), "source.tables=visits\n");
        ChartstreamConfig user = ChartstreamConfig.load(file, Map.of("CHARTSTREAM_SOURCE_SCHEMA", "mine"));
        ChartstreamConfig c = user.underlay(DATASET, "dataset clinic");
        assertThat(c.tables()).containsExactly("visits");
        assertThat(c.string("source.schema")).isEqualTo("mine");
        assertThat(c.list("source.patient-name-columns")).isEmpty();
    }

    @Test
    void anUnknownKeyOrABadValueIsRefusedNamingTheKeyAndTheDataset() {
        assertThatThrownBy(() -> ChartstreamConfig.defaults().underlay(Map.of("source.colour", "red"), "dataset clinic"))
                .hasMessageContaining("source.colour").hasMessageContaining("dataset clinic");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().underlay(Map.of("source.tables", " "), "dataset clinic"))
                .hasMessageContaining("source.tables").hasMessageContaining("dataset clinic");
    }
}
