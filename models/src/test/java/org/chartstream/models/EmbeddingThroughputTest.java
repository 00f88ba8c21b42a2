package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures embedding throughput: 100 passages of about 100 words, batch 32, 2 intra-op threads, after a warm-up.
 * Prints one line (see target/surefire-reports/org.chartstream.models.EmbeddingThroughputTest-output.txt).
 * Off by default to keep builds short; run it with
 * {@code mvn -B -o -q -pl models test -Dtest=EmbeddingThroughputTest -Dchartstream.bench=true}.
 */
@EnabledIfSystemProperty(named = "chartstream.bench", matches = "true")
class EmbeddingThroughputTest {

    @Test
    void measuresPassagesPerSecond() {
        List<String> warmup = TestTexts.passages(32, 100, 1);
        List<String> passages = TestTexts.passages(100, 100, 2);
        long loadStart = System.nanoTime();
        try (OnnxEmbedder e = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2, 32)) {
            double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
            e.embedPassages(warmup);
            int tokens = 0;
            for (String p : passages) {
                tokens += e.tokenizer().countTokens(p) + 2;
            }
            double best = Double.MAX_VALUE, total = 0;
            int rounds = 3;
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                float[][] v = e.embedPassages(passages);
                double s = (System.nanoTime() - t0) / 1e9;
                assertThat(v).hasNumberOfRows(passages.size());
                best = Math.min(best, s);
                total += s;
            }
            String line = String.format(Locale.ROOT,
                    "THROUGHPUT %s: %d passages x ~100 words (%.0f tokens avg), batch 32, 2 intra-op threads: "
                            + "best %.1f passages/s (%.0f tokens/s), mean %.1f passages/s over %d rounds; "
                            + "model load %.2f s; %d cores",
                    e.modelId(), passages.size(), tokens / (double) passages.size(), passages.size() / best,
                    tokens / best, passages.size() * rounds / total, rounds, loadSeconds,
                    Runtime.getRuntime().availableProcessors());
            System.out.println(line);
            assertThat(best).isPositive();
        }
    }
}
