package org.chartstream.query.pending;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
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
 * request whose conversation has one running waits behind it. A started request stays started until it is
 * {@link #finished}: its worker is done and, for an answer, the broker has the reply (so the next turn reads the
 * conversation memory with this one in it). Once its final reply is out (a {@code timeout} while its worker still runs,
 * or the answer on its way to the broker) it is {@link #replied}: nothing more is sent for it.
 */
public final class PendingRequests {
    private final Consumer<PendingRequest> start;
    /** Conversation id → the id of its running (started, not finished) request. */
    private final Map<String, String> runningByConversation = new HashMap<>();
    /** Started requests by id, until they are finished (also after a timeout reply). */
    private final Map<String, PendingRequest> started = new HashMap<>();
    /** Started requests whose final reply is out. */
    private final Set<String> replied = new HashSet<>();
    private final Map<String, Deque<PendingRequest>> waiting = new HashMap<>();

    /** @param start runs a request (on a worker); called when its turn comes */
    public PendingRequests(Consumer<PendingRequest> start) {
        this.start = start;
    }

    /** What the pending store held when this task started, in arrival order: requests admitted before a restart. */
    public static List<PendingRequest> recovered(KeyValueStore<String, PendingRequest> store) {
        List<PendingRequest> recovered = new ArrayList<>();
        try (KeyValueIterator<String, PendingRequest> it = store.all()) {
            it.forEachRemaining(kv -> recovered.add(kv.value));
        }
        return inArrivalOrder(recovered);
    }

    /**
     * Requests of one task's partition in the order they arrived: by their offset on the request partition. The store
     * iterates by request id, and turns a client posts at once arrive within the same millisecond, so the receive time
     * alone would start a later turn of a conversation first. Entries written before the offset was recorded (offset
     * -1) were admitted before any that has one, and keep their receive-time order.
     */
    public static List<PendingRequest> inArrivalOrder(Collection<PendingRequest> requests) {
        List<PendingRequest> ordered = new ArrayList<>(requests);
        ordered.sort(Comparator.comparingLong(PendingRequest::getArrivalOffset).thenComparingLong(PendingRequest::getReceivedTsMs));
        return ordered;
    }

    /** Starts the request now, or once the running turn of its conversation (and those before it) are done. */
    public void enqueue(PendingRequest p) {
        String conversation = p.getRequest().getConversationId();
        if (runningByConversation.containsKey(conversation)) {
            waiting.computeIfAbsent(conversation, c -> new ArrayDeque<>()).addLast(p);
        } else {
            begin(p);
        }
    }

    /** Turns of {@code conversation} admitted and not finished: the running one and those waiting behind it. */
    public int turnsInFlight(String conversation) {
        Deque<PendingRequest> queue = waiting.get(conversation);
        return (runningByConversation.containsKey(conversation) ? 1 : 0) + (queue == null ? 0 : queue.size());
    }

    /** The request is done: the next waiting turn of its conversation starts. */
    public void finished(PendingRequest p) {
        started.remove(p.getRequest().getRequestId());
        replied.remove(p.getRequest().getRequestId());
        String conversation = p.getRequest().getConversationId();
        runningByConversation.remove(conversation);
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

    /** Admitted requests not finished yet: started (running, held or answered but unsettled) and waiting. */
    public List<PendingRequest> unfinished() {
        List<PendingRequest> all = new ArrayList<>(started.values());
        waiting.values().forEach(all::addAll);
        return all;
    }

    /** Marks a started request as given its final reply: whatever its worker still hands back is dropped. */
    public void replied(PendingRequest p) {
        replied.add(p.getRequest().getRequestId());
    }

    public boolean isReplied(PendingRequest p) {
        return replied.contains(p.getRequest().getRequestId());
    }

    /**
     * Takes the waiting requests past their deadline out of their queues and hands them to {@code expired}, in
     * conversation order: only once the running turn ahead of them has its final reply out, and only from the front of
     * the queue (a timeout sent earlier would overtake the reply of a turn posted before it). A turn past its deadline
     * behind one that is not starts when its turn comes and is then timed out as a running request.
     */
    public void dropWaitingPastDeadline(long nowMs, Consumer<PendingRequest> expired) {
        for (Map.Entry<String, Deque<PendingRequest>> e : waiting.entrySet()) {
            String running = runningByConversation.get(e.getKey());
            if (running != null && !replied.contains(running)) {
                continue;
            }
            Deque<PendingRequest> queue = e.getValue();
            while (!queue.isEmpty() && RequestCheck.pastDeadline(queue.peekFirst().getRequest(), nowMs)) {
                expired.accept(queue.pollFirst());
            }
        }
        waiting.values().removeIf(Deque::isEmpty);
    }

    private void begin(PendingRequest p) {
        runningByConversation.put(p.getRequest().getConversationId(), p.getRequest().getRequestId());
        started.put(p.getRequest().getRequestId(), p);
        start.accept(p);
    }
}
