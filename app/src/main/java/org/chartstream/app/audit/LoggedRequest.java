package org.chartstream.app.audit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/** A request as it was posted on the request topic: when, what, and where its replies were asked to go. */
public record LoggedRequest(long timestampMs, QueryRequest request, String replyTo) {
    /** Marks the request ids of replays, so that a replay never replays a replay and audits can tell them apart. */
    public static final String REPLAY_MARK = "#replay-";

    public static boolean isReplay(String requestId) {
        return requestId != null && requestId.contains(REPLAY_MARK);
    }

    /**
     * The decodable original requests among {@code records} (bytes that are not a QueryRequest were answered with
     * an error at the time and have nothing to replay; earlier replays are left out).
     */
    public static List<LoggedRequest> originals(List<ConsumerRecord<String, byte[]>> records) {
        AvroSerde<QueryRequest> serde = AvroSerde.of(QueryRequest.class);
        List<LoggedRequest> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            QueryRequest request;
            try {
                request = r.value() == null ? null : serde.tryDeserialize(r.value());
            } catch (RuntimeException e) {
                request = null;
            }
            if (request == null || isReplay(request.getRequestId())) {
                continue;
            }
            Header h = r.headers().lastHeader(Topics.HEADER_REPLY_TO);
            out.add(new LoggedRequest(r.timestamp(), request, h == null ? Topics.REPLIES : new String(h.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }
}
