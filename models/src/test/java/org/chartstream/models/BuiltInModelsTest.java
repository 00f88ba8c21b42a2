package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every built-in model whose weights come from a Maven dependency loads from the class path and embeds sensibly. */
class BuiltInModelsTest {

    static Stream<ModelDescriptor> fromDependencies() {
        return ModelDescriptor.known().stream().filter(d -> !ModelResources.isFile(d.onnxResource()));
    }

    @ParameterizedTest
    @MethodSource("fromDependencies")
    void loadsFromItsJarAndRanksAParaphraseAboveUnrelatedText(ModelDescriptor d) {
        try (OnnxEmbedder embedder = OnnxEmbedder.load(d, 2)) {
            assertThat(embedder.modelId()).isEqualTo(d.id());
            float[] query = embedder.embedQuery("high blood pressure");
            float[][] passages = embedder.embedPassages(List.of("Essential hypertension (disorder)", "the pizza was delicious"));
            assertThat(query).hasSize(384);
            assertThat(Vectors.norm(passages[0])).isCloseTo(1f, within(1e-4f));
            assertThat(Vectors.dot(query, passages[0])).isGreaterThan(Vectors.dot(query, passages[1]));
        }
    }

    static Stream<ModelDescriptor> int8Variants() {
        return fromDependencies().filter(d -> d.id().endsWith("-q"));
    }

    @ParameterizedTest
    @MethodSource("int8Variants")
    void int8VariantsStayCloseToTheirFp32Model(ModelDescriptor d) {
        ModelDescriptor fp32 = ModelDescriptor.byId(d.id().substring(0, d.id().length() - 2));
        assertThat(d.pooling()).isEqualTo(fp32.pooling());
        assertThat(d.queryPrefix()).isEqualTo(fp32.queryPrefix());
        String text = "The patient reports chest pain radiating to the left arm.";
        try (OnnxEmbedder q = OnnxEmbedder.load(d, 2); OnnxEmbedder f = OnnxEmbedder.load(fp32, 2)) {
            assertThat(Vectors.dot(q.embedPassages(List.of(text))[0], f.embedPassages(List.of(text))[0])).isGreaterThan(0.95f);
        }
    }

    @Test
    void everyMavenModelIsKnownWithItsInt8Variant() {
        assertThat(fromDependencies().map(ModelDescriptor::id)).containsExactly(
                "all-minilm-l6-v2", "all-minilm-l6-v2-q", "e5-small-v2", "e5-small-v2-q", "bge-small-en-v1.5", "bge-small-en-v1.5-q");
    }
}
