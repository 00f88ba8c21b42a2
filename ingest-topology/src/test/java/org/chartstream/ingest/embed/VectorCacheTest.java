package org.chartstream.ingest.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VectorCacheTest {

    @Test
    void aCacheOfNoTextsKeepsNoneSoEveryTextIsEmbedded() {
        VectorCache none = new VectorCache(0);
        none.put("a", new float[] {1f});

        assertThat(none.holds("a")).isFalse();
        assertThat(none.size()).isZero();
        assertThatThrownBy(() -> new VectorCache(-1)).hasMessageContaining("must not be negative");
    }

    @Test
    void aTextMetAgainIsAHitAndAnUnknownOneAMiss() {
        VectorCache cache = new VectorCache(4);
        float[] v = {1f, 2f};
        cache.put("lab test: Potassium", v);

        assertThat(cache.get("lab test: Potassium")).isSameAs(v);
        assertThat(cache.get("lab test: Sodium")).isNull();
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(1);
    }

    @Test
    void itKeepsAtMostItsCapacityDroppingTheLeastRecentlyUsedText() {
        VectorCache cache = new VectorCache(2);
        cache.put("a", new float[] {1f});
        cache.put("b", new float[] {2f});
        cache.get("a"); // a is now the more recently used
        cache.put("c", new float[] {3f});

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get("b")).as("the least recently used went").isNull();
        assertThat(cache.get("a")).containsExactly(1f);
        assertThat(cache.get("c")).containsExactly(3f);
    }
}
