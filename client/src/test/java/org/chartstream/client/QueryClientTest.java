package org.chartstream.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.Test;

class QueryClientTest {
    private static ConsumerRecord<String, byte[]> reply(String key, String correlationId) {
        ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(Topics.REPLIES, 0, 0L, key, new byte[] {1});
        if (correlationId != null) {
            r.headers().add(Topics.HEADER_CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    @Test
    void aReplyKeyedByTheRequestIdOrCarryingItAsCorrelationIdMayBeForTheRequest() {
        assertThat(QueryClient.mayBeFor("r1", reply("r1", "c9"))).isTrue();
        assertThat(QueryClient.mayBeFor("c1", reply("r7", "c1"))).isTrue();
        assertThat(QueryClient.mayBeFor("r1", reply(null, "r1"))).isTrue();
    }

    @Test
    void anotherRequestsReplyIsSkipped() {
        assertThat(QueryClient.mayBeFor("r1", reply("r2", "c2"))).isFalse();
        assertThat(QueryClient.mayBeFor("r1", reply("r2", null))).isFalse();
        assertThat(QueryClient.mayBeFor("r1", reply(null, null))).isFalse();
    }
}
