package org.chartstream.schemas.unreadable;

import java.nio.ByteBuffer;
import org.chartstream.schemas.DeadLetter;

/**
 * A record that a consumer of one of the pipeline's own topics could not read, where it lies and why. The consumer
 * skips it and goes on; the record's bytes travel only into a {@link DeadLetter}, never into a log line.
 *
 * @param consumer which reader skipped it (also the dead letter's {@code stage}), e.g. {@code index-materializer}
 */
public record UnreadableRecord(String topic, int partition, long offset, byte[] key, byte[] value, String consumer,
                               String reason) {

    /** The dead letter for {@code chartstream.dead-letter}: where the record lay, its original bytes, stage and reason. */
    public DeadLetter toDeadLetter(long nowMs) {
        return DeadLetter.newBuilder().setSourceTopic(topic).setPartition(partition).setOffset(offset)
                .setKey(key == null ? null : ByteBuffer.wrap(key)).setValue(value == null ? null : ByteBuffer.wrap(value))
                .setStage(consumer).setReason(reason).setTsMs(nowMs).build();
    }

    /** Where it was and why it was skipped, without any of its content. */
    public String describe() {
        return consumer + " skipped an unreadable record at " + topic + "-" + partition + " offset " + offset + ": " + reason;
    }
}
