package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Standard ranking metrics over graded judgments (BEIR conventions: gain 2^rel − 1, log2 discount). */
public final class RankingMetrics {
    private RankingMetrics() {
    }

    public static double ndcgAt(int k, List<String> ranked, Map<String, Integer> judgments) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            dcg += gain(judgments.getOrDefault(ranked.get(i), 0)) / log2(i + 2);
        }
        List<Integer> ideal = new ArrayList<>(judgments.values());
        ideal.sort(Comparator.reverseOrder());
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            idcg += gain(ideal.get(i)) / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /** Share of the relevant documents (grade > 0) found in the first k. */
    public static double recallAt(int k, List<String> ranked, Map<String, Integer> judgments) {
        long relevant = judgments.values().stream().filter(g -> g > 0).count();
        if (relevant == 0) {
            return 0;
        }
        long found = ranked.stream().limit(k).filter(id -> judgments.getOrDefault(id, 0) > 0).count();
        return (double) found / relevant;
    }

    /** Reciprocal rank of the first relevant document within the first k, else 0. */
    public static double mrrAt(int k, List<String> ranked, Map<String, Integer> judgments) {
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (judgments.getOrDefault(ranked.get(i), 0) > 0) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    /** The value at quantile q (0..1) of the samples, nearest-rank. */
    public static double percentile(List<Double> samples, double q) {
        if (samples.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(samples);
        sorted.sort(null);
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    private static double gain(int grade) {
        return Math.pow(2, grade) - 1;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
