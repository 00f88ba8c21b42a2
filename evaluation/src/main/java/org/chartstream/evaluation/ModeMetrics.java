package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Mean ranking metrics of one mode over a set of judged queries, and the query latency percentiles.
 *
 * @param recallAt50 from the fused list, before any rerank
 */
public record ModeMetrics(int queries, double ndcgAt10, double recallAt10, double recallAt50, double mrrAt10,
                          double p50Ms, double p95Ms) {

    /** Accumulates one query at a time. */
    public static final class Accumulator {
        private final List<Double> latenciesMs = new ArrayList<>();
        private double ndcg;
        private double recall10;
        private double recall50;
        private double mrr;
        private int queries;

        /**
         * @param finalOrder the documents in the mode's final order
         * @param fusedOrder the documents in fused order, before rerank
         */
        public void add(List<String> finalOrder, List<String> fusedOrder, Map<String, Integer> judgments, double latencyMs) {
            ndcg += RankingMetrics.ndcgAt(10, finalOrder, judgments);
            recall10 += RankingMetrics.recallAt(10, finalOrder, judgments);
            recall50 += RankingMetrics.recallAt(50, fusedOrder, judgments);
            mrr += RankingMetrics.mrrAt(10, finalOrder, judgments);
            latenciesMs.add(latencyMs);
            queries++;
        }

        public ModeMetrics metrics() {
            int n = Math.max(queries, 1);
            return new ModeMetrics(queries, ndcg / n, recall10 / n, recall50 / n, mrr / n,
                    RankingMetrics.percentile(latenciesMs, 0.50), RankingMetrics.percentile(latenciesMs, 0.95));
        }
    }
}
