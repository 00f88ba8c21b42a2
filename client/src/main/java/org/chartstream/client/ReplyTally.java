package org.chartstream.client;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.SetResult;

/**
 * Every reply event a load of requests got back, as they lie on the reply topic (not deduplicated), checked against
 * what was sent: a request is lost without a final reply; it came twice when it got more than one final reply (after
 * a crash or a partition move the pipeline answers again), and twice with conflicting content when those final
 * replies differ in {@link Content} (what a client that keeps the first one could have got instead). A conversation's
 * turns are out of order when their first final replies do not lie in the order the turns were sent, in the order
 * {@link #received} was called (one reply partition read in offset order; the pipeline's own reply topics have one).
 * Thread-safe: senders and one reader of the reply topic share it.
 */
public final class ReplyTally {
    /** What a final reply says: its type, its text, the rows it cites, in order, and a whole-set answer's result. */
    public record Content(ReplyType type, String text, List<String> citedRows, SetResult set) {
        public static Content of(ReplyEvent e) {
            return new Content(e.getType(), e.getText() == null ? "" : e.getText().toString(),
                    e.getCitations().stream().map(Citation::getRowKey).map(String::valueOf).toList(), e.getSetResult());
        }
    }

    /** The counts of a finished load. */
    public record Summary(int requests, int answered, int lost, int duplicates, int conflictingDuplicates,
                          int conversationsOutOfOrder, Map<ReplyType, Integer> firstFinalTypes, List<Double> latenciesMs) {
    }

    private record Sent(String conversation, long sentNanos) {
    }

    private final Map<String, Sent> sent = new LinkedHashMap<>();
    private final Map<String, List<String>> turns = new LinkedHashMap<>();
    private final Map<String, List<Content>> finals = new HashMap<>();
    private final Map<String, Long> firstFinalPosition = new HashMap<>();
    private final Map<String, Long> firstFinalNanos = new HashMap<>();
    private long position;

    /** A request was posted (turns of one conversation in the order they were posted). */
    public synchronized void sent(String requestId, String conversationId, long sentNanos) {
        sent.put(requestId, new Sent(conversationId, sentNanos));
        turns.computeIfAbsent(conversationId, c -> new ArrayList<>()).add(requestId);
    }

    /** The next reply event on the reply topic, read at {@code receivedNanos}. */
    public synchronized void received(ReplyEvent e, long receivedNanos) {
        position++;
        if (!QueryClient.FINAL.contains(e.getType())) {
            return;
        }
        String id = String.valueOf(e.getRequestId());
        finals.computeIfAbsent(id, k -> new ArrayList<>()).add(Content.of(e));
        firstFinalPosition.putIfAbsent(id, position);
        firstFinalNanos.putIfAbsent(id, receivedNanos);
        notifyAll();
    }

    /** Whether every request sent so far has a final reply. */
    public synchronized boolean allAnswered(List<String> requestIds) {
        return requestIds.stream().allMatch(firstFinalPosition::containsKey);
    }

    /** Waits until every one of {@code requestIds} has a final reply or {@code timeoutNanos} passed; says whether they all have. */
    public synchronized boolean awaitAnswered(List<String> requestIds, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!allAnswered(requestIds)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    public synchronized Summary summary() {
        int answered = 0;
        int duplicates = 0;
        int conflicting = 0;
        Map<ReplyType, Integer> types = new EnumMap<>(ReplyType.class);
        List<Double> latencies = new ArrayList<>();
        for (Map.Entry<String, Sent> s : sent.entrySet()) {
            List<Content> got = finals.getOrDefault(s.getKey(), List.of());
            if (got.isEmpty()) {
                continue;
            }
            answered++;
            types.merge(got.get(0).type(), 1, Integer::sum);
            latencies.add((firstFinalNanos.get(s.getKey()) - s.getValue().sentNanos()) / 1e6);
            if (got.size() > 1) {
                duplicates++;
                if (got.stream().distinct().count() > 1) {
                    conflicting++;
                }
            }
        }
        int outOfOrder = 0;
        for (List<String> ids : turns.values()) {
            long last = Long.MIN_VALUE;
            for (String id : ids) {
                Long at = firstFinalPosition.get(id);
                if (at == null) {
                    continue;
                }
                if (at < last) {
                    outOfOrder++;
                    break;
                }
                last = at;
            }
        }
        return new Summary(sent.size(), answered, sent.size() - answered, duplicates, conflicting, outOfOrder, types, latencies);
    }
}
