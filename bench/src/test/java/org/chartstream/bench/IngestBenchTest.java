package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;
import org.chartstream.datasets.Datasets;
import org.chartstream.ingest.normalize.SourceRegistration;
import org.chartstream.runtime.SourceRegistrations;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.Test;

class IngestBenchTest {

    @Test
    void theJsonIsOneObjectWithTheRatesTheWallTimeAndTheDistinctEmbedTexts() throws Exception {
        IngestBench.Result result = new IngestBench.Result("mimic-iv-demo", 1_000, 1_200, 20.0, 50, 40, 2.0,
                Optional.empty(), Optional.empty(), Optional.empty(), 1.5, 2.5);

        JsonNode json = new ObjectMapper().readTree(result.json());

        assertThat(json.get("dataset").asText()).isEqualTo("mimic-iv-demo");
        assertThat(json.get("rows_per_s").asDouble()).isEqualTo(50.0);
        assertThat(json.get("chunks_per_s").asDouble()).isEqualTo(60.0);
        assertThat(json.get("seconds").asDouble()).isEqualTo(20.0);
        assertThat(json.get("embed_texts").asInt()).isEqualTo(50);
        assertThat(json.get("raw_embed_chunks_per_s").asDouble()).isEqualTo(20.0);
        assertThat(json.get("load_avg_searchable").asDouble()).isEqualTo(2.5);
    }

    @Test
    void theMimicDemoIndexesItsEightClinicalTablesAndCapturesTheirDictionaries() {
        ChartstreamConfig config = ChartstreamConfig.defaults().underlay(Datasets.mimicIvDemo().configuration(), "dataset");
        SourceRegistration source = SourceRegistrations.from(config);

        assertThat(SourceRegistrations.indexedTables(source)).containsExactly("patients", "admissions", "transfers",
                "diagnoses_icd", "procedures_icd", "prescriptions", "microbiologyevents", "labevents");
        assertThat(source.tables()).containsKeys("d_icd_diagnoses", "d_icd_procedures", "d_labitems");
    }
}
