package org.chartstream.app.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ReadinessTest {
    private static final Map<String, Long> ALL_PUBLISHED = new TreeMap<>(Map.of("ehr:patients", 2L, "ehr:medications", 1L));

    private static Readiness.Inputs healthy() {
        return new Readiness.Inputs(null, null, ALL_PUBLISHED, "all-minilm-l6-v2", "bi-encoder", 0, 32);
    }

    @Test
    void readyWhenEveryCheckPasses() {
        Readiness.Report report = Readiness.evaluate(healthy());
        assertThat(report.ready()).isTrue();
        assertThat(report.failing()).isEmpty();
        assertThat(report.checks()).extracting(Readiness.Check::name)
                .containsExactly("store", "indexes", "models", "pipeline", "admission");
    }

    @Test
    void anIngestProcessIsReadyOnceItsModelIsLoadedAndCaptureRunsWithoutFailure() {
        Readiness.Report ready = Readiness.evaluateIngest(new Readiness.IngestInputs(null, null, "all-minilm-l6-v2"));
        assertThat(ready.ready()).isTrue();
        assertThat(ready.checks()).extracting(Readiness.Check::name).containsExactly("models", "pipeline", "capture");

        Readiness.Report starting = Readiness.evaluateIngest(new Readiness.IngestInputs(null, "change data capture is starting", null));
        assertThat(starting.failing()).containsExactly("models", "capture");
        assertThat(starting.json()).contains("change data capture is starting");
        assertThat(Readiness.evaluateIngest(new Readiness.IngestInputs("a Kafka Streams topology stopped (state ERROR)", null,
                "all-minilm-l6-v2")).failing()).containsExactly("pipeline");
    }

    @Test
    void aTableWithoutAnActiveGenerationIsNamed() {
        Readiness.Check check = Readiness.indexes(Map.of("ehr:patients", 3L, "ehr:clinical_notes", 0L, "ehr:conditions", 0L));
        assertThat(check.ok()).isFalse();
        assertThat(check.detail()).isEqualTo("no active generation yet for ehr:clinical_notes, ehr:conditions");
        assertThat(Readiness.indexes(Map.of()).ok()).isFalse();
        assertThat(Readiness.indexes(ALL_PUBLISHED).detail()).isEqualTo("2 tables have an active generation");
    }

    @Test
    void aFullAdmissionLimitIsNotReady() {
        assertThat(Readiness.admission(31, 32).ok()).isTrue();
        Readiness.Check full = Readiness.admission(32, 32);
        assertThat(full.ok()).isFalse();
        assertThat(full.detail()).startsWith("32 of 32 requests in flight");
        // recovered requests may push the count past the limit
        assertThat(Readiness.admission(40, 32).ok()).isFalse();
    }

    @Test
    void missingModelsAndAnUnreadableStoreOrAStoppedPipelineFail() {
        assertThat(Readiness.models(null, "bi-encoder").detail()).contains("embedding model is not loaded");
        assertThat(Readiness.models("all-minilm-l6-v2", null).detail()).contains("reranker is not loaded");
        assertThat(Readiness.models("all-minilm-l6-v2", "bi-encoder").ok()).isTrue();
        assertThat(Readiness.store("the index cannot be read: AlreadyClosedException").ok()).isFalse();
        assertThat(Readiness.pipeline("a Kafka Streams topology stopped (state ERROR)").ok()).isFalse();
    }

    @Test
    void theJsonBodyNamesTheFailingChecks() throws Exception {
        Readiness.Inputs in = new Readiness.Inputs(null, null, Map.of("ehr:patients", 0L), "m", "r", 32, 32);
        JsonNode body = new ObjectMapper().readTree(Readiness.evaluate(in).json());
        assertThat(body.path("ready").asBoolean(true)).isFalse();
        assertThat(body.path("failing")).extracting(JsonNode::asText).containsExactly("indexes", "admission");
        assertThat(body.path("checks").path("store").path("ok").asBoolean()).isTrue();
        assertThat(body.path("checks").path("indexes").path("detail").asText()).contains("ehr:patients");
    }

    @Test
    void beforeThePipelineStartsEveryCheckFails() {
        Readiness.Report report = Readiness.starting();
        assertThat(report.ready()).isFalse();
        assertThat(report.failing()).containsExactly("store", "indexes", "models", "pipeline", "admission");
    }
}
