package org.chartstream.query.pending;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.junit.jupiter.api.Test;

class PendingRequestsTest {
    private final List<String> startedIds = new ArrayList<>();
    private final PendingRequests pending = new PendingRequests(p -> startedIds.add(p.getRequest().getRequestId()));

    private static PendingRequest request(String id, String conversation, Long deadlineMs) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId(conversation).setUserId("u")
                .setQuestion("q").setTopK(3).setDeadlineMs(deadlineMs).build();
        return PendingRequest.newBuilder().setRequest(r).setReplyTo("chartstream.replies").setReceivedTsMs(0).setNextSeq(1).build();
    }

    @Test
    void turnsOfOneConversationStartOneAfterAnotherInArrivalOrderAndOtherConversationsDoNotWait() {
        PendingRequest a1 = request("a1", "a", null);
        PendingRequest a2 = request("a2", "a", null);
        PendingRequest a3 = request("a3", "a", null);
        pending.enqueue(a1);
        pending.enqueue(a2);
        pending.enqueue(a3);
        pending.enqueue(request("b1", "b", null));
        assertThat(startedIds).containsExactly("a1", "b1");

        pending.finished(a1);
        assertThat(startedIds).containsExactly("a1", "b1", "a2");
        assertThat(pending.started()).extracting(p -> p.getRequest().getRequestId()).containsExactlyInAnyOrder("b1", "a2");
        pending.finished(a2);
        assertThat(startedIds).containsExactly("a1", "b1", "a2", "a3");
    }

    @Test
    void aWaitingTurnPastItsDeadlineLeavesTheQueueAndTheNextOneStartsInItsPlace() {
        PendingRequest a1 = request("a1", "a", null);
        pending.enqueue(a1);
        pending.enqueue(request("a2", "a", 1_000L));
        pending.enqueue(request("a3", "a", 5_000L));
        List<String> expired = new ArrayList<>();

        pending.dropWaitingPastDeadline(2_000, p -> expired.add(p.getRequest().getRequestId()));
        pending.finished(a1);

        assertThat(expired).containsExactly("a2");
        assertThat(startedIds).containsExactly("a1", "a3");
    }

    @Test
    void aStartedRequestGivenItsFinalReplyIsRememberedUntilItIsFinished() {
        PendingRequest a1 = request("a1", "a", null);
        pending.enqueue(a1);
        assertThat(pending.isReplied(a1)).isFalse();

        pending.replied(a1);

        assertThat(pending.isReplied(a1)).isTrue();
        assertThat(pending.started()).as("still started until finished").containsExactly(a1);
        pending.finished(a1);
        assertThat(pending.isReplied(a1)).isFalse();
        assertThat(pending.started()).isEmpty();
    }
}
