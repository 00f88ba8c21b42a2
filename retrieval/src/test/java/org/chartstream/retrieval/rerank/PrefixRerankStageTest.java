package org.chartstream.retrieval.rerank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.model.Reranker;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
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

    /** The fused list: one candidate per row key, with these fused scores, numbered from 1. */
    private static List<Candidate> fused(List<String> rowKeys, List<Double> fusedScores) {
        List<Candidate> fused = new ArrayList<>();
        for (int i = 0; i < rowKeys.size(); i++) {
            fused.add(TestCandidates.fused(TestCandidates.chunk(rowKeys.get(i)), fusedScores.get(i), i + 1));
        }
        return fused;
    }

    private static String text(String rowKey) {
        return TestCandidates.chunk(rowKey).text();
    }

    @Test
    void reranksOnlyThePrefixAndOrdersByScore() {
        List<String> rows = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            rows.add("c" + i);
            scores.add(2.0 / (60 + i));
        }
        rows.add("weak");
        scores.add(1.0 / 71);
        TableReranker reranker = new TableReranker(Map.of(text("c7"), 0.9, text("c4"), 0.8, text("c2"), 0.5,
                text("weak"), 0.99));

        RerankOutcome outcome = new PrefixRerankStage(reranker).rerank("q", fused(rows, scores), 3);

        assertThat(reranker.calls).hasSize(1);
        assertThat(reranker.calls.get(0)).hasSize(10).doesNotContain(text("weak"));
        assertThat(outcome.prefix().length()).isEqualTo(10);
        assertThat(outcome.ranked()).extracting(TestCandidates::rowKey)
                .containsExactly("c7", "c4", "c2", "c1", "c3", "c5", "c6", "c8", "c9", "c10");
        assertThat(outcome.ranked().get(0).fusedRank()).isEqualTo(7);
        assertThat(outcome.ranked().get(0).rerankScore()).isEqualTo(0.9);
        assertThat(outcome.bestScore()).isEqualTo(0.9);
        assertThat(outcome.reranker()).isEqualTo("table");
        assertThat(outcome.scorer()).isEqualTo(Reranker.CROSS_ENCODER_SIGMOID);
    }

    @Test
    void equalScoresKeepTheFusedOrder() {
        List<Candidate> fused = fused(List.of("a", "b", "c"), List.of(0.03, 0.02, 0.01));

        RerankOutcome outcome = new PrefixRerankStage(new TableReranker(Map.of())).rerank("q", fused, 3);

        assertThat(outcome.ranked()).extracting(TestCandidates::rowKey).containsExactly("a", "b", "c");
    }

    @Test
    void nothingFusedMeansNothingRanked() {
        RerankOutcome outcome = new PrefixRerankStage(new TableReranker(Map.of())).rerank("q", List.of(), 3);

        assertThat(outcome.ranked()).isEmpty();
        assertThat(outcome.bestScore()).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
