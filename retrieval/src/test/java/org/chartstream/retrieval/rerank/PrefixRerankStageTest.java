package org.chartstream.retrieval.rerank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.model.Reranker;
import org.junit.jupiter.api.Test;

class PrefixRerankStageTest {

    /** Scores each passage by a fixed table; records what it was asked. */
    private static final class TableReranker implements Reranker {
        private final Map<String, Double> scores;
        final List<List<String>> calls = new ArrayList<>();

        TableReranker(Map<String, Double> scores) {
            this.scores = scores;
        }

        @Override
        public String name() {
            return "table";
        }

        @Override
        public String scorer() {
            return CROSS_ENCODER_SIGMOID;
        }

        @Override
        public double[] score(String query, List<String> passages) {
            calls.add(List.copyOf(passages));
            return passages.stream().mapToDouble(p -> scores.getOrDefault(p, 0.0)).toArray();
        }

        @Override
        public void close() {
        }
    }

    private static RerankCandidate candidate(String id, String row, double fused) {
        return new RerankCandidate(id, row, "text of " + id, fused);
    }

    @Test
    void reranksOnlyThePrefixOrdersByScoreAndKeepsOneChunkPerRow() {
        List<RerankCandidate> fused = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            fused.add(candidate("c" + i, "row" + i, 2.0 / (60 + i)));
        }
        fused.set(3, candidate("c4", "row2", 2.0 / 64));
        fused.add(candidate("weak", "row-weak", 1.0 / 71));
        TableReranker reranker = new TableReranker(Map.of("text of c7", 0.9, "text of c4", 0.8, "text of c2", 0.5,
                "text of weak", 0.99));

        RerankOutcome outcome = new PrefixRerankStage(reranker).rerank("q", fused, 3);

        assertThat(reranker.calls).hasSize(1);
        assertThat(reranker.calls.get(0)).hasSize(10).doesNotContain("text of weak");
        assertThat(outcome.prefix().length()).isEqualTo(10);
        assertThat(outcome.ranked()).extracting(r -> r.candidate().chunkId())
                .containsExactly("c7", "c4", "c1", "c3", "c5", "c6", "c8", "c9", "c10");
        assertThat(outcome.ranked().get(0).fusedRank()).isEqualTo(7);
        assertThat(outcome.bestScore()).isEqualTo(0.9);
        assertThat(outcome.reranker()).isEqualTo("table");
        assertThat(outcome.scorer()).isEqualTo(Reranker.CROSS_ENCODER_SIGMOID);
    }

    @Test
    void equalScoresKeepTheFusedOrder() {
        List<RerankCandidate> fused = List.of(candidate("a", "r1", 0.03), candidate("b", "r2", 0.02), candidate("c", "r3", 0.01));

        RerankOutcome outcome = new PrefixRerankStage(new TableReranker(Map.of())).rerank("q", fused, 3);

        assertThat(outcome.ranked()).extracting(r -> r.candidate().chunkId()).containsExactly("a", "b", "c");
    }

    @Test
    void nothingFusedMeansNothingRanked() {
        RerankOutcome outcome = new PrefixRerankStage(new TableReranker(Map.of())).rerank("q", List.of(), 3);

        assertThat(outcome.ranked()).isEmpty();
        assertThat(outcome.bestScore()).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
