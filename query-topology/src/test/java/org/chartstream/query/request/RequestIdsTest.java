package org.chartstream.query.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.chartstream.query.request.RequestIds.Seen;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RequestIdEntry;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
    private static final Duration DAY = Duration.ofDays(1);
    private static final long T0 = 1_700_000_000_000L;
    private static final ReplyEvent ANSWER = ReplyEvent.newBuilder().setRequestId("r1").setSeq(2).setType(ReplyType.ANSWER).setTsMs(T0).build();

    private static RequestIdEntry taken(ReplyEvent outcome) {
        return RequestIdEntry.newBuilder().setFingerprint("f1").setFirstSeenMs(T0).setOutcome(outcome).build();
    }

    @Test
    void anIdIsFirstUntilTakenAndAgainOnceItsWindowHasPassed() {
        assertThat(RequestIds.classify(null, "f1", T0, DAY)).isEqualTo(Seen.FIRST);
        assertThat(RequestIds.classify(taken(ANSWER), "f1", T0 + DAY.toMillis() - 1, DAY)).isEqualTo(Seen.REPEAT);
        assertThat(RequestIds.classify(taken(ANSWER), "f2", T0 + DAY.toMillis(), DAY)).isEqualTo(Seen.FIRST);
        assertThat(RequestIds.expired(taken(ANSWER), T0 + DAY.toMillis(), DAY)).isTrue();
    }

    @Test
    void theSameContentRepeatsOrWaitsAndOtherContentConflicts() {
        assertThat(RequestIds.classify(taken(ANSWER), "f1", T0 + 5, DAY)).isEqualTo(Seen.REPEAT);
        assertThat(RequestIds.classify(taken(null), "f1", T0 + 5, DAY)).isEqualTo(Seen.IN_FLIGHT);
        assertThat(RequestIds.classify(taken(ANSWER), "f2", T0 + 5, DAY)).isEqualTo(Seen.CONFLICT);
        assertThat(RequestIds.classify(taken(null), "f2", T0 + 5, DAY)).isEqualTo(Seen.CONFLICT);
    }

    @Test
    void anIdStillInFlightNeverExpires() {
        assertThat(RequestIds.expired(taken(null), T0 + 10 * DAY.toMillis(), DAY)).isFalse();
        assertThat(RequestIds.classify(taken(null), "f2", T0 + 10 * DAY.toMillis(), DAY)).isEqualTo(Seen.CONFLICT);
    }

    @Test
    void theConflictNamesTheFieldAndTheWindow() {
        RequestCheck.Problem p = RequestIds.conflict("r1", DAY);
        assertThat(p.field()).isEqualTo("request_id");
        assertThat(p.message()).isEqualTo("duplicate request id: 'r1' was taken within the last 24 h by a request with different content;"
                + " send a new request id");
        assertThat(RequestIds.conflict("r1", Duration.ofMinutes(90)).message()).contains("within the last 90 min");
        assertThat(RequestIds.conflict("r1", Duration.ofMillis(1500)).message()).contains("within the last 1500 ms");
    }
}
