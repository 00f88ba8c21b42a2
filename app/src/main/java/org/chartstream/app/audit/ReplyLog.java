package org.chartstream.app.audit;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.chartstream.client.QueryClient;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.chartstream.schemas.unreadable.UnreadableRecord;
import org.chartstream.schemas.unreadable.UnreadableRecords;

/**
 * Finds what requests were answered with: final reply events on their reply topics, audit records on the audit topic.
 * A record of the audit topic or the default reply topic that cannot be read (not an {@code AnswerAudit} /
 * {@code ReplyEvent}, or citing a chunk id that names no row) is skipped and reported to its
 * {@link UnreadableRecords}; the read goes on.
 */
public final class ReplyLog {
    /** The name it reports skipped records under. */
    public static final String CONSUMER_NAME = "audit-reader";
    private final TopicReader reader;
    private final UnreadableRecords unreadable;

    /** Reports skipped records on stderr (offset and reason, no content). */
    public ReplyLog(TopicReader reader) {
        this(reader, UnreadableRecords.reportingTo(line -> System.err.println("[chartstream] " + line)));
    }

    public ReplyLog(TopicReader reader, UnreadableRecords unreadable) {
        this.reader = reader;
        this.unreadable = unreadable;
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
                if (e == null && r.value() != null && topic.equals(Topics.REPLIES)) {
                    report(r, "not a ReplyEvent (Avro single-object encoding)");
                }
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
        List<AnswerAudit> out = new java.util.ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : reader.read(Topics.AUDIT, window)) {
            if (r.value() == null) {
                continue;
            }
            AnswerAudit a = decode(serde, r.value());
            String problem = a == null ? "not an AnswerAudit (Avro single-object encoding)" : auditProblem(a);
            if (problem != null) {
                report(r, problem);
            } else if (includeReplays || !LoggedRequest.isReplay(a.getRequestId())) {
                out.add(a);
            }
        }
        return out;
    }

    /** Null when every citation of {@code a} names a row; else which one does not. */
    static String auditProblem(AnswerAudit a) {
        for (int i = 0; i < a.getCited().size(); i++) {
            try {
                CitedRow.of(a.getCited().get(i).getChunkId(), 0, "");
            } catch (IllegalArgumentException e) {
                return "citation " + (i + 1) + " of the audit record has a chunk id that is not source:table:rowKey:chunkIndex:generation";
            }
        }
        return null;
    }

    private void report(ConsumerRecord<String, byte[]> r, String problem) {
        unreadable.skipped(new UnreadableRecord(r.topic(), r.partition(), r.offset(), null, r.value(), CONSUMER_NAME, problem));
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> T decode(AvroSerde<T> serde, byte[] bytes) {
        try {
            return bytes == null ? null : serde.tryDeserialize(bytes);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
