package org.chartstream.query.pending;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.chartstream.query.request.RequestCheck;
import org.chartstream.schemas.PendingRequest;

/**
 * Admitted requests on the stream thread. Turns of one conversation start one after another, in arrival order: a
 * request whose conversation has one running waits behind it. A started request stays started until its worker is
 * done, also after a {@code timeout} reply (whatever that worker still hands back is then dropped).
 */
public final class PendingRequests {
    private final Consumer<PendingRequest> start;
    private final Set<String> runningConversations = new HashSet<>();
    /** Started requests by id, until their worker is done (also after a timeout reply). */
    private final Map<String, PendingRequest> started = new HashMap<>();
    /** Started requests already answered {@code timeout}. */
    private final Set<String> timedOut = new HashSet<>();
    private final Map<String, Deque<PendingRequest>> waiting = new HashMap<>();

    /** @param start runs a request (on a worker); called when its turn comes */
    public PendingRequests(Consumer<PendingRequest> start) {
        this.start = start;
    }

    /** What the pending store held when this task started, oldest first: requests admitted before a restart. */
    public static List<PendingRequest> recovered(KeyValueStore<String, PendingRequest> store) {
        List<PendingRequest> recovered = new ArrayList<>();
        try (KeyValueIterator<String, PendingRequest> it = store.all()) {
            it.forEachRemaining(kv -> recovered.add(kv.value));
        }
        recovered.sort(Comparator.comparingLong(PendingRequest::getReceivedTsMs));
        return recovered;
    }

    /** Starts the request now, or once the running turn of its conversation (and those before it) are done. */
    public void enqueue(PendingRequest p) {
        String conversation = p.getRequest().getConversationId();
        if (runningConversations.contains(conversation)) {
            waiting.computeIfAbsent(conversation, c -> new ArrayDeque<>()).addLast(p);
        } else {
            begin(p);
        }
    }

    /** The request's worker is done: the next waiting turn of its conversation starts. */
    public void finished(PendingRequest p) {
        started.remove(p.getRequest().getRequestId());
        String conversation = p.getRequest().getConversationId();
        runningConversations.remove(conversation);
        Deque<PendingRequest> next = waiting.get(conversation);
        if (next != null && !next.isEmpty()) {
            PendingRequest following = next.pollFirst();
            if (next.isEmpty()) {
                waiting.remove(conversation);
            }
            begin(following);
        }
    }

    /** The started requests, as a copy. */
    public List<PendingRequest> started() {
        return List.copyOf(started.values());
    }

    /** Marks a started request as answered {@code timeout}. */
    public void timedOut(PendingRequest p) {
        timedOut.add(p.getRequest().getRequestId());
    }

    public boolean isTimedOut(PendingRequest p) {
        return timedOut.contains(p.getRequest().getRequestId());
    }

    /** Whether the request was answered {@code timeout} while it ran; forgets that it was. */
    public boolean clearTimedOut(PendingRequest p) {
        return timedOut.remove(p.getRequest().getRequestId());
    }

    /** Takes every waiting request past its deadline out of its queue and hands it to {@code expired}. */
    public void dropWaitingPastDeadline(long nowMs, Consumer<PendingRequest> expired) {
        for (Deque<PendingRequest> queue : waiting.values()) {
            queue.removeIf(p -> {
                if (!RequestCheck.pastDeadline(p.getRequest(), nowMs)) {
                    return false;
                }
                expired.accept(p);
                return true;
            });
        }
        waiting.values().removeIf(Deque::isEmpty);
    }

    private void begin(PendingRequest p) {
        runningConversations.add(p.getRequest().getConversationId());
        started.put(p.getRequest().getRequestId(), p);
        start.accept(p);
    }
}
