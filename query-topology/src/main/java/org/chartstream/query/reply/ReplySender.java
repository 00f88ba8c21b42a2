package org.chartstream.query.reply;

import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;
import org.chartstream.schemas.ReplyEvent;

/**
 * Where reply events leave: outside the Kafka Streams transaction, so a {@code read_committed} client sees a reply as
 * soon as it is sent, not at the next commit. Replies are at least once (a restart may send one again, with the same
 * request id and seq); what exactly-once protects (pending requests, request ids, conversation memory, audit) stays
 * in the transaction and waits for the final reply's delivery (docs/ARCHITECTURE.md, "Reply delivery").
 */
public interface ReplySender extends AutoCloseable {
    /**
     * Sends the event keyed by its request id; {@code delivered} runs once the broker has it (on the sender's own
     * thread), with null, or with the failure that kept it from the broker.
     */
    void send(String topic, ReplyEvent event, Headers headers, Consumer<Exception> delivered);

    @Override
    default void close() {
    }
}
