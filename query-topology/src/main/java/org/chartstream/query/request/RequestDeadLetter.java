package org.chartstream.query.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.chartstream.schemas.DeadLetter;
import org.chartstream.schemas.Topics;

/** The dead letter of a rejected request: where it was read, its original bytes and why (stage {@code query.validate}). */
public final class RequestDeadLetter {
    private RequestDeadLetter() {
    }

    /** @param source where the record was read; empty when Streams cannot say (then the request topic, offset -1) */
    public static DeadLetter of(String key, byte[] value, Optional<RecordMetadata> source, String reason) {
        RecordMetadata meta = source.orElse(null);
        return DeadLetter.newBuilder().setSourceTopic(meta == null ? Topics.REQUESTS : meta.topic())
                .setPartition(meta == null ? -1 : meta.partition()).setOffset(meta == null ? -1 : meta.offset())
                .setKey(key == null ? null : ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)))
                .setValue(value == null ? null : ByteBuffer.wrap(value))
                .setStage("query.validate").setReason(reason).setTsMs(System.currentTimeMillis()).build();
    }
}
