package org.chartstream.app.audit;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.chartstream.app.client.QueryClient;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/** Finds what requests were answered with: final reply events on their reply topics, audit records on the audit topic. */
public final class ReplyLog {
    private final TopicReader reader;

    public ReplyLog(TopicReader reader) {
        this.reader = reader;
    }

    /** The final reply event of each request in {@code requestIds}, looked up on the topics the requests named. */
    public Map<String, ReplyEvent> finalReplies(Collection<LoggedRequest> requests, TimeWindow window) {
        Set<String> topics = new LinkedHashSet<>();
        Set<String> ids = new java.util.HashSet<>();
        for (LoggedRequest r : requests) {
            topics.add(r.replyTo());
            ids.add(r.request().getRequestId());
        }
        topics.add(Topics.REPLIES); // where replies go when the named topic was not usable
        AvroSerde<ReplyEvent> serde = AvroSerde.of(ReplyEvent.class);
        Map<String, ReplyEvent> finals = new HashMap<>();
        for (String topic : topics) {
            for (ConsumerRecord<String, byte[]> r : reader.read(topic, window)) {
                ReplyEvent e = decode(serde, r.value());
                if (e != null && ids.contains(e.getRequestId()) && QueryClient.FINAL.contains(e.getType())) {
                    finals.put(e.getRequestId(), e);
                }
            }
        }
        return finals;
    }

    /** The audit records written in {@code window}, in log order; replays' records only when asked for. */
    public List<AnswerAudit> audits(TimeWindow window, boolean includeReplays) {
        AvroSerde<AnswerAudit> serde = AvroSerde.of(AnswerAudit.class);
        return reader.read(Topics.AUDIT, window).stream().map(r -> decode(serde, r.value()))
                .filter(a -> a != null && (includeReplays || !LoggedRequest.isReplay(a.getRequestId()))).toList();
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> T decode(AvroSerde<T> serde, byte[] bytes) {
        try {
            return bytes == null ? null : serde.tryDeserialize(bytes);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
