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
    void aWaitingTurnPastItsDeadlineLeavesTheQueueOnceTheTurnAheadHasItsFinalReplyAndTheNextOneStartsInItsPlace() {
        PendingRequest a1 = runningWithTwoWaiting(1_000L, 5_000L);
        List<String> expired = new ArrayList<>();

        pending.replied(a1);
        pending.dropWaitingPastDeadline(2_000, p -> expired.add(p.getRequest().getRequestId()));
        pending.finished(a1);

        assertThat(expired).containsExactly("a2");
        assertThat(startedIds).containsExactly("a1", "a3");
    }

    @Test
    void aWaitingTurnPastItsDeadlineIsNotTimedOutAheadOfTheRunningTurnsReplyNorAheadOfAnEarlierWaitingTurn() {
        PendingRequest a1 = runningWithTwoWaiting(9_000L, 1_000L);
        List<String> expired = new ArrayList<>();

        pending.dropWaitingPastDeadline(2_000, p -> expired.add(p.getRequest().getRequestId()));
        assertThat(expired).as("a1 has no final reply yet: a3's timeout would overtake it").isEmpty();

        pending.replied(a1);
        pending.dropWaitingPastDeadline(2_000, p -> expired.add(p.getRequest().getRequestId()));
        assertThat(expired).as("a2 is still waiting ahead of it").isEmpty();

        pending.finished(a1);
        PendingRequest a2 = pending.started().get(0);
        pending.replied(a2);
        pending.dropWaitingPastDeadline(2_000, p -> expired.add(p.getRequest().getRequestId()));
        assertThat(expired).containsExactly("a3");
        assertThat(startedIds).containsExactly("a1", "a2");
    }

    @Test
    void recoveredRequestsResumeInArrivalOrderEvenWhenTurnsArrivedInTheSameMillisecond() {
        PendingRequest first = withArrival(request("z-first", "a", null), 5, 41);
        PendingRequest second = withArrival(request("m-second", "a", null), 5, 42);
        PendingRequest third = withArrival(request("a-third", "a", null), 5, 43);
        PendingRequest older = withArrival(request("y-older", "b", null), 4, -1);

        assertThat(PendingRequests.inArrivalOrder(List.of(third, first, older, second)))
                .extracting(p -> p.getRequest().getRequestId())
                .containsExactly("y-older", "z-first", "m-second", "a-third");
    }

    /** Conversation a: a1 running (no deadline), a2 and a3 waiting behind it with these deadlines; returns a1. */
    private PendingRequest runningWithTwoWaiting(long a2DeadlineMs, long a3DeadlineMs) {
        PendingRequest a1 = request("a1", "a", null);
        pending.enqueue(a1);
        pending.enqueue(request("a2", "a", a2DeadlineMs));
        pending.enqueue(request("a3", "a", a3DeadlineMs));
        return a1;
    }

    private static PendingRequest withArrival(PendingRequest p, long receivedMs, long offset) {
        return PendingRequest.newBuilder(p).setReceivedTsMs(receivedMs).setArrivalOffset(offset).build();
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
