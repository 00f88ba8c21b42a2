package org.chartstream.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.evaluation.RankingMetrics;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;

/**
 * Where one request's round trip went, from the client's clock and the service's reply timestamps (the bench runs
 * client and service in one JVM: one clock). The service stamps its {@code accepted} reply when the stream thread
 * has read the request and its final reply when the stream thread builds it; the audit record gives the pipeline's
 * own time on its worker. Milliseconds, as the replies' timestamps are.
 *
 * @param sentMs         when the client posted the request
 * @param acceptedTsMs   the {@code accepted} reply's timestamp: the stream thread has read the request
 * @param acceptedReadMs when the client had the {@code accepted} reply
 * @param finalTsMs      the final reply's timestamp: the stream thread built it
 * @param finalReadMs    when the client had the final reply
 */
record RequestHops(long sentMs, long acceptedTsMs, long acceptedReadMs, long finalTsMs, long finalReadMs) {
    /** The hops in the order a request passes them, as {@code hops_ms} names them. */
    static final List<String> NAMES = List.of("request", "pipeline", "hand_off", "reply", "accepted_reply");

    /**
     * From a request's reply events and when the client read each type first; null when the request was not
     * accepted (no {@code accepted} reply) or got no final reply.
     */
    static RequestHops of(long sentMs, List<ReplyEvent> events, Map<ReplyType, Long> firstReadMs) {
        if (events.isEmpty() || events.get(0).getType() != ReplyType.ACCEPTED || events.size() < 2) {
            return null;
        }
        ReplyEvent last = events.get(events.size() - 1);
        return new RequestHops(sentMs, events.get(0).getTsMs(), firstReadMs.get(ReplyType.ACCEPTED), last.getTsMs(),
                firstReadMs.get(last.getType()));
    }

    /**
     * This request's hops given its pipeline time (the audit's {@code total}): client → stream thread
     * ({@code request}), the pipeline on its worker, the rest of the service's time (hand-off to the worker and back,
     * the wait for the stream thread's next pass, building the reply: {@code hand_off}), the final reply to the
     * client ({@code reply}), and the {@code accepted} reply to the client (the same hop, while the pipeline runs).
     */
    Map<String, Double> split(double pipelineMs) {
        Map<String, Double> hops = new LinkedHashMap<>();
        hops.put("request", (double) (acceptedTsMs - sentMs));
        hops.put("pipeline", pipelineMs);
        hops.put("hand_off", finalTsMs - acceptedTsMs - pipelineMs);
        hops.put("reply", (double) (finalReadMs - finalTsMs));
        hops.put("accepted_reply", (double) (acceptedReadMs - acceptedTsMs));
        return hops;
    }

    /** Median of each hop over the requests that have a pipeline time ({@code pipelineMs}, by request id). */
    static Map<String, Double> medians(Map<String, RequestHops> byRequestId, Map<String, Double> pipelineMs) {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        NAMES.forEach(n -> samples.put(n, new ArrayList<>()));
        byRequestId.forEach((id, hops) -> {
            Double pipeline = pipelineMs.get(id);
            if (pipeline != null) {
                hops.split(pipeline).forEach((hop, ms) -> samples.get(hop).add(ms));
            }
        });
        Map<String, Double> medians = new LinkedHashMap<>();
        samples.forEach((hop, values) -> {
            if (!values.isEmpty()) {
                medians.put(hop, RankingMetrics.percentile(values, 0.5));
            }
        });
        return medians;
    }
}
