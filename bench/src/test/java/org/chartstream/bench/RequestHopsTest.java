package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class RequestHopsTest {
    private static ReplyEvent event(ReplyType type, int seq, long tsMs) {
        return ReplyEvent.newBuilder().setRequestId("r").setCorrelationId("r").setSeq(seq).setType(type).setText(null)
                .setCitations(List.of()).setExtractive(false).setError(null).setFlaggedCitations(List.of()).setTsMs(tsMs).build();
    }

    @Test
    void theRoundTripSplitsIntoTheRequestHopThePipelineTheHandOffAndTheReplyHop() {
        RequestHops hops = RequestHops.of(1_000, List.of(event(ReplyType.ACCEPTED, 0, 1_004), event(ReplyType.CITATIONS, 1, 1_030),
                event(ReplyType.ANSWER, 2, 1_050)), Map.of(ReplyType.ACCEPTED, 1_007L, ReplyType.CITATIONS, 1_033L, ReplyType.ANSWER, 1_053L));

        assertThat(hops.split(40)).containsExactly(Map.entry("request", 4.0), Map.entry("pipeline", 40.0),
                Map.entry("hand_off", 6.0), Map.entry("reply", 3.0), Map.entry("accepted_reply", 3.0));
    }

    @Test
    void aRequestTurnedAwayOrUnansweredHasNoHops() {
        assertThat(RequestHops.of(1_000, List.of(event(ReplyType.BUSY, 0, 1_004)), Map.of(ReplyType.BUSY, 1_006L))).isNull();
        assertThat(RequestHops.of(1_000, List.of(), Map.of())).isNull();
    }

    @Test
    void eachHopsMedianIsOverTheRequestsWithAPipelineTime() {
        RequestHops fast = new RequestHops(0, 2, 3, 30, 32);
        RequestHops slow = new RequestHops(0, 10, 12, 70, 80);
        RequestHops unaudited = new RequestHops(0, 100, 100, 1_000, 1_000);

        Map<String, Double> medians = RequestHops.medians(Map.of("a", fast, "b", slow, "c", unaudited), Map.of("a", 20.0, "b", 50.0));

        // nearest rank: the lower of two; the unaudited request (request hop 100 ms) is not counted
        assertThat(medians).containsExactly(Map.entry("request", 2.0), Map.entry("pipeline", 20.0), Map.entry("hand_off", 8.0),
                Map.entry("reply", 2.0), Map.entry("accepted_reply", 1.0));
    }
}
