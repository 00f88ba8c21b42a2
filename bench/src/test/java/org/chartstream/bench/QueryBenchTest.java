package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryBenchTest {
    private static QueryBench.Result run(int clients, double p50) {
        return new QueryBench.Result(1_000, clients, 30, p50, 2 * p50, 10.0, Map.of("total", 20.0),
                Map.of("pipeline", 20.0), new QueryBench.Index(1.5, 0.5, 3));
    }

    @Test
    void oneClientCountIsItsOwnObjectAndSeveralAreOneObjectHoldingEveryRun() {
        QueryBench.Result one = run(1, 40);
        QueryBench.Result eight = run(8, 90);

        assertThat(QueryBench.lastLine(List.of(one))).isEqualTo(one.toJson());
        assertThat(QueryBench.lastLine(List.of(one, eight))).isEqualTo("{\"runs\":[" + one.toJson() + ", " + eight.toJson() + "]}");
        assertThat(one.toJson()).isEqualTo("{\"chunks\":1000, \"clients\":1, \"p50_ms\":40.0, \"p95_ms\":80.0,"
                + " \"stages_ms\":{\"total\":20.0}, \"hops_ms\":{\"pipeline\":20.0}, \"requests\":30, \"requests_per_s\":10.00, \"index_s\":1.5,"
                + " \"merge_wait_s\":0.5, \"segments\":3}");
    }

    private static final int CHUNKS = 300;

    private static QueryBench.Index prepare(Path dir, int chunks) throws InterruptedException {
        StoreBench.Settings settings = StoreBench.Settings.defaults(chunks);
        ClusteredCorpus corpus = new ClusteredCorpus(chunks, settings.dimension(), settings.clusters(), settings.noise(), settings.seed());
        boolean reuse = QueryBench.reusable(dir, chunks);
        try (LuceneHybridStore store = LuceneHybridStore.open(dir)) {
            return QueryBench.prepare(store, reuse, corpus, settings, new PrintWriter(new StringWriter()));
        }
    }

    @Test
    void anIndexBuiltWithItsMergesAwaitedIsReusedByTheNextRunOfTheSameSize(@TempDir Path dir) throws Exception {
        assertThat(QueryBench.reusable(dir, CHUNKS)).isFalse();
        QueryBench.Index built = prepare(dir, CHUNKS);

        assertThat(built.buildSeconds()).isPositive();
        assertThat(built.segments()).isPositive();
        assertThat(QueryBench.reusable(dir, CHUNKS)).isTrue();
        QueryBench.Index reused = prepare(dir, CHUNKS);
        assertThat(reused).isEqualTo(new QueryBench.Index(0, 0, built.segments()));
        try (LuceneHybridStore store = LuceneHybridStore.open(dir)) {
            assertThat(store.chunkCount()).isEqualTo(CHUNKS);
        }
    }

    @Test
    void anIndexOfAnotherSizeIsNotReusedNorBuiltOver(@TempDir Path dir) throws Exception {
        prepare(dir, CHUNKS);

        assertThat(QueryBench.reusable(dir, 2 * CHUNKS)).isFalse();
        assertThatThrownBy(() -> prepare(dir, 2 * CHUNKS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds another index");
    }
}
