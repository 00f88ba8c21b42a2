package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChartstreamConfigSourcesTest {
    @Test
    void perSourceAndFieldKeysAreKnownOthersAreNot() {
        assertThat(ChartstreamConfig.isKnown("source.clinic.kind")).isTrue();
        assertThat(ChartstreamConfig.isKnown("source.clinic.fields.visits")).isTrue();
        assertThat(ChartstreamConfig.isKnown("source.fields.clinical_notes")).isTrue();
        assertThat(ChartstreamConfig.isKnown("source.clinic.colour")).isFalse();
        assertThat(ChartstreamConfig.isKnown("sources.clinic")).isFalse();
    }

    @Test
    void aListedSourceFallsBackToTheFlatKeysAndItsTopicPrefixToItsId() {
        ChartstreamConfig c = ChartstreamConfig.defaults().with("sources", "clinic").with("source.clinic.tables", "visits")
                .with("source.patient-number-column", "mrn");
        assertThat(c.sourceIds()).containsExactly("clinic");
        assertThat(c.sourceValue("clinic", "topic-prefix")).isEqualTo("clinic");
        assertThat(c.sourceValue("clinic", "patient-number-column")).isEqualTo("mrn");
        assertThat(c.sourceList("clinic", "tables")).containsExactly("visits");
        assertThat(ChartstreamConfig.defaults().sourceIds()).containsExactly("ehr");
    }

    @Test
    void indexPartitionsAndPortsAreValidated() {
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("index.partitions", "0")).hasMessageContaining("index.partitions");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("query.partitions", "0")).hasMessageContaining("query.partitions");
        assertThat(ChartstreamConfig.defaults().integer("query.partitions")).isEqualTo(1);
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("source.port", "x")).hasMessageContaining("source.port");
        assertThat(ChartstreamConfig.defaults().with("source.fields.patients", "first_name,last_name")
                .allowedFields("ehr", "patients")).containsExactly("first_name", "last_name");
    }

    @Test
    void ingestPartitionsDefaultToTheIndexLogsAndAnyOtherCountIsRefusedNamingBoth() {
        assertThat(ChartstreamConfig.defaults().with("index.partitions", "3").ingestPartitions()).isEqualTo(3);
        assertThat(ChartstreamConfig.defaults().with("index.partitions", "3").with("ingest.partitions", "3").ingestPartitions()).isEqualTo(3);
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("index.partitions", "3").with("ingest.partitions", "2"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ingest.partitions")
                .hasMessageContaining("must equal index.partitions (3)");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("ingest.partitions", "0")).hasMessageContaining("ingest.partitions");
    }

    @Test
    void ingestCaptureIsAFlag() {
        assertThat(ChartstreamConfig.defaults().string("ingest.capture")).isEqualTo("true");
        assertThatThrownBy(() -> ChartstreamConfig.defaults().with("ingest.capture", "no")).hasMessageContaining("ingest.capture");
    }
}
