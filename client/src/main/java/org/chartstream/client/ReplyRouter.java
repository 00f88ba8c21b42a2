package org.chartstream.client;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Hands each record of the reply topic to the request waiting for it: the service keys every reply by its request
 * id and carries its correlation id in a header, and a waiting request (under its request id, or the correlation id
 * of a raw request) takes an event naming it as either. Another request's reply is skipped undecoded (a shared reply
 * topic holds every other client's replies too), and a record that is not a reply event is dropped: it must not end
 * a wait. Thread-safe.
 */
final class ReplyRouter {
    private final Map<String, BlockingQueue<ReplyEvent>> waiting = new ConcurrentHashMap<>();
    private final AvroSerde<ReplyEvent> replies = AvroSerde.of(ReplyEvent.class);

    /** Where the replies of {@code id} arrive until {@link #unregister}. */
    BlockingQueue<ReplyEvent> register(String id) {
        BlockingQueue<ReplyEvent> queue = new LinkedBlockingQueue<>();
        if (waiting.putIfAbsent(id, queue) != null) {
            throw new IllegalStateException("this client is already waiting for the replies of " + id);
        }
        return queue;
    }

    void unregister(String id) {
        waiting.remove(id);
    }

    void route(ConsumerRecord<String, byte[]> r) {
        hand(r, r.key());
        Header correlation = r.headers().lastHeader(Topics.HEADER_CORRELATION_ID);
        String correlationId = correlation == null ? null : new String(correlation.value(), StandardCharsets.UTF_8);
        if (correlationId != null && !correlationId.equals(r.key())) {
            hand(r, correlationId);
        }
    }

    private void hand(ConsumerRecord<String, byte[]> r, String id) {
        BlockingQueue<ReplyEvent> to = id == null ? null : waiting.get(id);
        ReplyEvent e = to == null || r.value() == null ? null : replies.tryDeserialize(r.value());
        if (e != null && (id.equals(e.getRequestId()) || id.equals(e.getCorrelationId()))) {
            to.add(e);
        }
    }
}
