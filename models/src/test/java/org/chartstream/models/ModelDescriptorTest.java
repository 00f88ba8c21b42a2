package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ModelDescriptorTest {

    @Test
    void embeddedDefault() {
        ModelDescriptor d = ModelDescriptor.ALL_MINILM_L6_V2;
        assertThat(d.id()).isEqualTo("all-minilm-l6-v2");
        assertThat(d.pooling()).isEqualTo(Pooling.MEAN);
        assertThat(d.dimension()).isEqualTo(384);
        assertThat(d.maxTokens()).isEqualTo(256);
        assertThat(d.queryPrefix()).isEmpty();
        assertThat(d.passagePrefix()).isEmpty();
        assertThat(ModelDescriptor.known().get(0)).isSameAs(d);
    }

    @Test
    void lookupById() {
        assertThat(ModelDescriptor.byId("all-minilm-l6-v2")).isSameAs(ModelDescriptor.ALL_MINILM_L6_V2);
        assertThat(ModelDescriptor.byId("bge-small-en-v1.5").pooling()).isEqualTo(Pooling.CLS);
        assertThat(ModelDescriptor.byId("bge-small-en-v1.5").maxTokens()).isEqualTo(512);
        ModelDescriptor e5 = ModelDescriptor.byId("e5-small-v2");
        assertThat(e5.pooling()).isEqualTo(Pooling.MEAN);
        assertThat(e5.queryPrefix()).isEqualTo("query: ");
        assertThat(e5.passagePrefix()).isEqualTo("passage: ");
        assertThat(ModelDescriptor.byId("bge-m3").dimension()).isEqualTo(1024);
    }

    @Test
    void unknownIdNamesItAndTheKnownOnes() {
        assertThatThrownBy(() -> ModelDescriptor.byId("gpt-embed-9000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'gpt-embed-9000'")
                .hasMessageContaining("all-minilm-l6-v2")
                .hasMessageContaining("e5-small-v2");
    }

    @Test
    void pointsAtFilesOnDisk() {
        ModelDescriptor d = ModelDescriptor.BGE_M3.withBaseDirectory(Path.of("/srv/chartstream"));
        assertThat(d.onnxResource()).isEqualTo("file:/srv/chartstream/models/bge-m3/model.onnx");
        assertThat(d.tokenizerResource()).isEqualTo("file:/srv/chartstream/models/bge-m3/tokenizer.json");
        ModelDescriptor f = ModelDescriptor.ALL_MINILM_L6_V2.withFiles(Path.of("/m/a.onnx"), Path.of("/m/t.json"));
        assertThat(f.onnxResource()).isEqualTo("file:/m/a.onnx");
        assertThat(f.id()).isEqualTo("all-minilm-l6-v2");
        assertThat(ModelDescriptor.ALL_MINILM_L6_V2.withBaseDirectory(Path.of("/x")))
                .isEqualTo(ModelDescriptor.ALL_MINILM_L6_V2); // classpath resources untouched
        assertThat(ModelDescriptor.BGE_M3.withMaxTokens(512).maxTokens()).isEqualTo(512);
    }

    @Test
    void validates() {
        assertThatThrownBy(() -> new ModelDescriptor(" ", "a", "b", Pooling.CLS, 512, 8, "", ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ModelDescriptor("x", "a", "b", Pooling.CLS, 512, 0, "", ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new ModelDescriptor("x", "a", "b", Pooling.CLS, 512, 8, null, null).queryPrefix()).isEmpty();
    }
}
