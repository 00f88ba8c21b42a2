package org.chartstream.query.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.junit.jupiter.api.Test;

class CatchUpGateTest {
    private final AtomicBoolean caughtUp = new AtomicBoolean();
    private final List<String> started = new ArrayList<>();
    private final CatchUpGate gate = new CatchUpGate(caughtUp::get, p -> started.add(p.getRequest().getRequestId()));

    private static PendingRequest request(String id) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("u").setQuestion("q")
                .setTopK(3).build();
        return PendingRequest.newBuilder().setRequest(r).setReplyTo("chartstream.replies").setReceivedTsMs(0).setNextSeq(1).build();
    }

    @Test
    void runsWaitUntilTheReplicaHasCaughtUpThenStartInTheOrderTheyCameBeforeAnyLaterOne() {
        gate.start(request("a"));
        gate.start(request("b"));
        assertThat(gate.release()).isFalse();
        assertThat(started).isEmpty();
        assertThat(gate.held()).isEqualTo(2);

        caughtUp.set(true);
        gate.start(request("c"));

        assertThat(started).containsExactly("a", "b", "c");
        assertThat(gate.held()).isZero();
    }

    @Test
    void onceOpenItStaysOpenAndAsksNoMore() {
        caughtUp.set(true);
        assertThat(gate.release()).isTrue();
        caughtUp.set(false); // the replica lags again by a few events: the task keeps answering, as a single instance does
        gate.start(request("a"));
        assertThat(started).containsExactly("a");
    }
}
