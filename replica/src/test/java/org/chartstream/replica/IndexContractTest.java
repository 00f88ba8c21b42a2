package org.chartstream.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import org.chartstream.core.store.HybridStore;
import org.junit.jupiter.api.Test;

class IndexContractTest {
    private static final IndexContract E5 = new IndexContract(384, "e5-small-v2");

    @Test
    void refusesAnIndexCommittedForAnotherModelNamingBoth() {
        assertThatThrownBy(() -> E5.requireSameModel(Map.of("embedding.model", "all-minilm-l6-v2", "offset.x.0", "7"), "the index"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the index holds vectors of embedding model 'all-minilm-l6-v2'")
                .hasMessageContaining("embedding.model is 'e5-small-v2'")
                .hasMessageContaining("embedding.model=all-minilm-l6-v2")
                .hasMessageContaining("empty data.dir");
    }

    @Test
    void acceptsTheSameModelANewIndexAndAnIndexWithoutARecordedModel() {
        assertThatCode(() -> E5.requireSameModel(Map.of("embedding.model", "e5-small-v2"), "i")).doesNotThrowAnyException();
        assertThatCode(() -> E5.requireSameModel(Map.of(), "i")).doesNotThrowAnyException();
        assertThatCode(() -> E5.requireSameModel(Map.of("offset.x.0", "7"), "i")).doesNotThrowAnyException();
        assertThatCode(() -> IndexContract.ANY.requireSameModel(Map.of("embedding.model", "m"), "i")).doesNotThrowAnyException();
    }

    @Test
    void theMaterializerRefusesToStartOnAStoreOfAnotherModel() {
        HybridStore committedForMiniLm = (HybridStore) Proxy.newProxyInstance(HybridStore.class.getClassLoader(),
                new Class<?>[] {HybridStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("checkpoint")) {
                        return Map.of("embedding.model", "all-minilm-l6-v2");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        assertThatThrownBy(() -> new IndexMaterializer("127.0.0.1:1", Map.of(), "chartstream.index", committedForMiniLm,
                Duration.ofSeconds(1), E5, r -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the index materialised from chartstream.index holds vectors of embedding model 'all-minilm-l6-v2'");
    }

    @Test
    void rejectsANegativeDimension() {
        assertThatThrownBy(() -> new IndexContract(-1, "m")).isInstanceOf(IllegalArgumentException.class);
    }
}
