package org.chartstream.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CachingQueryEmbedderTest {
    private static OnnxEmbedder model;
    private static final List<List<String>> CALLS = new ArrayList<>();
    private static QueryEmbedder counting;

    @BeforeAll
    static void load() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        QueryEmbedder real = QueryEmbedder.of(model);
        counting = new QueryEmbedder() {
            @Override
            public String modelId() {
                return real.modelId();
            }

            @Override
            public float[][] embedQueries(List<String> questions) {
                CALLS.add(List.copyOf(questions));
                return real.embedQueries(questions);
            }
        };
    }

    @AfterAll
    static void close() {
        model.close();
    }

    @Test
    void embedsAllMissesInOneBatchAndServesRepeatsFromTheCache() {
        CALLS.clear();
        CachingQueryEmbedder cache = new CachingQueryEmbedder(counting, 1024);

        float[][] first = cache.embedQueries(List.of("Metformin dose", "  metformin   DOSE ", "gout flare"));
        float[][] second = cache.embedQueries(List.of("gout flare", "knee pain"));

        assertThat(CALLS).containsExactly(List.of("metformin dose", "gout flare"), List.of("knee pain"));
        assertThat(first[0]).isEqualTo(first[1]);
        assertThat(second[0]).isEqualTo(first[2]);
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(3);
    }

    @Test
    void evictsTheLeastRecentlyUsedQueryBeyondItsCapacity() {
        CALLS.clear();
        CachingQueryEmbedder cache = new CachingQueryEmbedder(counting, 2);
        cache.embedQuery("a");
        cache.embedQuery("b");
        cache.embedQuery("a");
        cache.embedQuery("c"); // evicts b
        cache.embedQuery("a");
        cache.embedQuery("b");
        assertThat(CALLS).containsExactly(List.of("a"), List.of("b"), List.of("c"), List.of("b"));
    }
}
