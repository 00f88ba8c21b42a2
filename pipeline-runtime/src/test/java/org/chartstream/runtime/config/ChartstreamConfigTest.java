package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.chartstream.retrieval.QuerySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartstreamConfigTest {

    @Test
    void defaultsMatchTheDesign() {
        ChartstreamConfig c = ChartstreamConfig.defaults();
        assertThat(c.integer("query.rrf-k")).isEqualTo(60);
        assertThat(c.string("query.fusion")).isEqualTo("adaptive");
        assertThat(c.integer("query.per-side")).isEqualTo(50);
        assertThat(c.integer("query.top-k")).isEqualTo(6);
        assertThat(c.integer("query.cohort-cap")).isEqualTo(500);
        assertThat(c.tables()).startsWith("patients");
    }

    @Test
    void theCohortCapReachesTheQuerySettingsAndMustBePositive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cap.properties");
        Files.writeString(file, "query.cohort-cap=7\n");
        assertThat(org.chartstream.runtime.QueryWiring.settings(ChartstreamConfig.load(file, Map.of())).cohortCap()).isEqualTo(7);
        Files.writeString(file, "query.cohort-cap=0\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("query.cohort-cap");
    }

    @Test
    void theSentenceRuleReachesTheQuerySettingsAndMustBeKnown(@TempDir Path dir) throws Exception {
        assertTheRuleReachesTheQuerySettings(dir, "query.sentence-vectors", QuerySettings::sentenceVectors,
                org.chartstream.retrieval.embed.SentenceVectors.CLAUSES, "blend", org.chartstream.retrieval.embed.SentenceVectors.BLEND,
                "all", "must be off, mean, max, blend, questions, standout or clauses");
    }

    @Test
    void theTermWeightRuleReachesTheQuerySettingsAndMustBeKnown(@TempDir Path dir) throws Exception {
        assertTheRuleReachesTheQuerySettings(dir, "query.term-weights", QuerySettings::termWeights,
                org.chartstream.retrieval.search.QuestionTermWeights.EMBEDDING, "off", org.chartstream.retrieval.search.QuestionTermWeights.OFF,
                "idf", "must be embedding or off");
    }

    /** The key's default and another value reach the query settings; an unknown value is refused naming the key. */
    private static void assertTheRuleReachesTheQuerySettings(Path dir, String key, java.util.function.Function<QuerySettings, Object> rule,
                                                            Object byDefault, String other, Object otherRule, String unknown,
                                                            String refusal) throws Exception {
        assertThat(rule.apply(org.chartstream.runtime.QueryWiring.settings(ChartstreamConfig.defaults()))).isEqualTo(byDefault);
        Path file = dir.resolve("rule.properties");
        Files.writeString(file, key + "=" + other + "\n");
        assertThat(rule.apply(org.chartstream.runtime.QueryWiring.settings(ChartstreamConfig.load(file, Map.of())))).isEqualTo(otherRule);
        Files.writeString(file, key + "=" + unknown + "\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(key).hasMessageContaining(refusal);
    }

    @Test
    void theRequestLimitsAndWorkersReachTheTransportSettingsNotTheQuerySettings() {
        ChartstreamConfig c = ChartstreamConfig.load(null, Map.of("CHARTSTREAM_QUERY_MAX_QUESTION_CHARS", "900",
                "CHARTSTREAM_QUERY_WORKERS", "3"));
        assertThat(QueryKeys.transport(c)).isEqualTo(new org.chartstream.query.QueryTransportSettings(900, QuerySettings.MAX_TOP_K, 3));
        assertThat(QueryKeys.transport(ChartstreamConfig.defaults()))
                .isEqualTo(org.chartstream.query.QueryTransportSettings.defaults());
    }

    @Test
    void theDefaultsGiveTheRetrievalDefaults() {
        assertThat(org.chartstream.runtime.QueryWiring.settings(ChartstreamConfig.defaults())).isEqualTo(QuerySettings.defaults());
    }

    @Test
    void fileOverridesDefaultsAndEnvironmentOverridesTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("chartstream.properties");
        Files.writeString(file, "query.top-k=4\ningest.batch-chunks=16\n");

        ChartstreamConfig c = ChartstreamConfig.load(file, Map.of("CHARTSTREAM_QUERY_TOP_K", "3"));

        assertThat(c.integer("query.top-k")).isEqualTo(3);
        assertThat(c.integer("ingest.batch-chunks")).isEqualTo(16);
        assertThat(c.describe().get("query.top-k")).contains("environment CHARTSTREAM_QUERY_TOP_K");
    }

    @Test
    void fusionIsAdaptiveScoreOrRrf() {
        for (String fusion : new String[] {"adaptive", "score", "rrf"}) {
            assertThat(ChartstreamConfig.load(null, Map.of("CHARTSTREAM_QUERY_FUSION", fusion)).string("query.fusion")).isEqualTo(fusion);
        }
        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_QUERY_FUSION", "mean")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("query.fusion").hasMessageContaining("adaptive, score or rrf");
    }

    @Test
    void computePriorityIsLowOrNormal() {
        assertThat(ChartstreamConfig.defaults().string("query.compute-priority")).isEqualTo("normal");
        assertThat(ChartstreamConfig.load(null, Map.of("CHARTSTREAM_QUERY_COMPUTE_PRIORITY", "low"))
                .string("query.compute-priority")).isEqualTo("low");
        assertThat(QueryKeys.computePriority(ChartstreamConfig.defaults())).isEqualTo(QueryKeys.ComputePriority.NORMAL);
        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_QUERY_COMPUTE_PRIORITY", "high")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("query.compute-priority").hasMessageContaining("low or normal");
    }

    @Test
    void badValuesNameTheKeyAndTheirOrigin(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.properties");
        Files.writeString(file, "gate.threshold.bi-encoder=high\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gate.threshold.bi-encoder").hasMessageContaining(file.toString());

        Files.writeString(file, "query.topk=3\n");
        assertThatThrownBy(() -> ChartstreamConfig.load(file, Map.of())).hasMessageContaining("unknown configuration key 'query.topk'");

        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_SOURCE_KIND", "oracle")))
                .hasMessageContaining("source.kind").hasMessageContaining("CHARTSTREAM_SOURCE_KIND");
    }

    @Test
    void theIngestNeedsAtLeastOneStreamThread() {
        assertThat(ChartstreamConfig.defaults().integer("ingest.stream-threads")).isEqualTo(2);
        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_INGEST_STREAM_THREADS", "0")))
                .hasMessageContaining("ingest.stream-threads");
    }

    @Test
    void freshnessSettingsDefaultToLowLatencyAndTheQuietTimeMayNotExceedTheLinger() {
        ChartstreamConfig c = ChartstreamConfig.defaults();
        assertThat(c.integer("ingest.quiet-ms")).isEqualTo(10);
        assertThat(c.integer("ingest.commit-interval-ms")).isEqualTo(100);
        assertThat(c.sourceValue(c.sourceIds().get(0), "poll-interval-ms")).isEqualTo("10");

        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_INGEST_QUIET_MS", "600")))
                .hasMessageContaining("ingest.quiet-ms").hasMessageContaining("ingest.linger-ms");
        assertThatThrownBy(() -> ChartstreamConfig.load(null, Map.of("CHARTSTREAM_SOURCE_POLL_INTERVAL_MS", "0")))
                .hasMessageContaining("source.poll-interval-ms");
    }
}
