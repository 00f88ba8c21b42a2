package org.chartstream.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.chartstream.evaluation.RankingMetrics;

/**
 * The figures of one concurrency level of {@code bench load}.
 *
 * @param rps         admitted requests answered per second of the level's wall time
 * @param p50Ms       median latency (sent → final reply) of the admitted requests
 * @param p99Ms       99th percentile of the same
 * @param busy        requests whose final reply was {@code busy}
 * @param busyP50Ms   median latency of the busy replies (how quickly a rejected client knows)
 * @param busyP99Ms   99th percentile of the same
 * @param busyRequestP99Ms 99th percentile of a busy reply's first hop: sent → the stream thread turned it away (the
 *                    busy event's {@code ts_ms}; client and service share a clock in the bench)
 * @param busyReplyP99Ms 99th percentile of its second hop: turned away → the client has the busy reply
 * @param lost        requests with no final reply within the timeout
 * @param admissionLimit the adaptive admission limit at the end of the level
 */
public record LoadLevel(int clients, int requests, double rps, double p50Ms, double p99Ms, int busy, double busyP50Ms, double busyP99Ms,
                        double busyRequestP99Ms, double busyReplyP99Ms, int lost, int admissionLimit) {

    /** How one request ended: a final reply other than busy, a busy reply, or none within the timeout. */
    public enum Ending { ANSWERED, BUSY, LOST }

    /**
     * One request's ending, its latency in milliseconds (the timeout for a lost one) and how much of it passed before
     * the service stamped its final reply ({@code ts_ms} − sent; 0 for a lost one).
     */
    public record Outcome(Ending ending, double latencyMs, double stampedAfterMs) {
    }

    public static LoadLevel of(int clients, List<Outcome> outcomes, double wallSeconds, int admissionLimit) {
        List<Double> answered = latencies(outcomes, Ending.ANSWERED);
        List<Double> busy = latencies(outcomes, Ending.BUSY);
        List<Double> busyRequest = new ArrayList<>();
        List<Double> busyReply = new ArrayList<>();
        outcomes.stream().filter(o -> o.ending() == Ending.BUSY).forEach(o -> {
            busyRequest.add(o.stampedAfterMs());
            busyReply.add(o.latencyMs() - o.stampedAfterMs());
        });
        int lost = (int) outcomes.stream().filter(o -> o.ending() == Ending.LOST).count();
        return new LoadLevel(clients, outcomes.size(), wallSeconds <= 0 ? 0 : answered.size() / wallSeconds,
                RankingMetrics.percentile(answered, 0.5), RankingMetrics.percentile(answered, 0.99), busy.size(),
                RankingMetrics.percentile(busy, 0.5), RankingMetrics.percentile(busy, 0.99),
                RankingMetrics.percentile(busyRequest, 0.99), RankingMetrics.percentile(busyReply, 0.99), lost, admissionLimit);
    }

    private static List<Double> latencies(List<Outcome> outcomes, Ending ending) {
        List<Double> out = new ArrayList<>();
        outcomes.stream().filter(o -> o.ending() == ending).forEach(o -> out.add(o.latencyMs()));
        return out;
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"clients\":%d, \"rps\":%.2f, \"p50_ms\":%.1f, \"p99_ms\":%.1f, \"busy\":%d,"
                + " \"busy_p50_ms\":%.1f, \"busy_p99_ms\":%.1f, \"busy_hops_p99_ms\":{\"request\":%.1f, \"reply\":%.1f},"
                + " \"lost\":%d, \"admission_limit\":%d}",
                clients, rps, p50Ms, p99Ms, busy, busyP50Ms, busyP99Ms, busyRequestP99Ms, busyReplyP99Ms, lost, admissionLimit);
    }

    /** The command's last line: {@code {"levels":[…]}}. */
    public static String levelsJson(List<LoadLevel> levels) {
        return levels.stream().map(LoadLevel::toJson).collect(Collectors.joining(", ", "{\"levels\":[", "]}"));
    }
}
