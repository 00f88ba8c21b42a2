package org.chartstream.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;

class ReplyRouterTest {
    private static ConsumerRecord<String, byte[]> record(String key, String correlationId, byte[] value) {
        ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(Topics.REPLIES, 0, 0L, key, value);
        if (correlationId != null) {
            r.headers().add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    private static ConsumerRecord<String, byte[]> reply(String requestId, String correlationId, ReplyType type) {
        ReplyEvent e = ReplyEvent.newBuilder().setRequestId(requestId).setCorrelationId(correlationId).setSeq(0).setType(type)
                .setText(null).setCitations(List.of()).setExtractive(false).setError(null).setFlaggedCitations(List.of())
                .setTsMs(0).build();
        return record(requestId, correlationId, AvroSerde.of(ReplyEvent.class).serialize(Topics.REPLIES, e));
    }

    @Test
    void eachWaitingRequestGetsItsOwnRepliesOnly() {
        ReplyRouter router = new ReplyRouter();
        BlockingQueue<ReplyEvent> first = router.register("r1");
        BlockingQueue<ReplyEvent> second = router.register("r2");

        router.route(reply("r1", "r1", ReplyType.ACCEPTED));
        router.route(reply("r2", "r2", ReplyType.BUSY));
        router.route(reply("r3", "r3", ReplyType.ANSWER));
        router.route(reply("r1", "r1", ReplyType.ANSWER));

        assertThat(first).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED, ReplyType.ANSWER);
        assertThat(second).extracting(ReplyEvent::getType).containsExactly(ReplyType.BUSY);
    }

    @Test
    void aRawRequestWaitingUnderItsCorrelationIdGetsTheReplyKeyedOtherwise() {
        ReplyRouter router = new ReplyRouter();
        BlockingQueue<ReplyEvent> raw = router.register("c1");

        router.route(reply("unknown", "c1", ReplyType.ERROR));

        assertThat(raw).extracting(ReplyEvent::getType).containsExactly(ReplyType.ERROR);
    }

    @Test
    void aRecordThatIsNoReplyEventOrIsForNobodyWaitingIsDropped() {
        ReplyRouter router = new ReplyRouter();
        BlockingQueue<ReplyEvent> waiting = router.register("r1");

        router.route(record("r1", "r1", "not avro".getBytes(StandardCharsets.UTF_8)));
        router.route(record("r1", null, null));
        router.unregister("r1");
        router.route(reply("r1", "r1", ReplyType.ANSWER));

        assertThat(waiting).isEmpty();
    }

    @Test
    void aSecondWaitForTheSameIdIsRefused() {
        ReplyRouter router = new ReplyRouter();
        router.register("r1");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> router.register("r1"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("r1");
    }
}
