package org.chartstream.app.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;

/**
 * One replay: the original requests of a window posted again into a reply topic of the run's own, and, when asked,
 * each replay's answer compared with the original's (its final reply event, else its audit record).
 */
public final class ReplayRun {

    /** One replayed request: the replay's final reply (null: none within the timeout) and its comparison, if made. */
    public record Replayed(String requestId, ReplyEvent replay, ReplayComparison comparison) {
    }

    public record Report(String runId, String replyTopic, List<Replayed> results) {
        public long answered() {
            return results.stream().filter(r -> r.replay() != null).count();
        }

        public long same() {
            return results.stream().filter(r -> r.comparison() != null && r.comparison().same()).count();
        }

        public long changed() {
            return results.stream().filter(r -> r.comparison() != null && !r.comparison().same()).count();
        }
    }

    private ReplayRun() {
    }

    /** The reply topic of run {@code runId} unless one is given. */
    public static String defaultReplyTopic(String runId) {
        return "chartstream.replay." + runId;
    }

    public static Report run(TopicReader reader, TimeWindow window, String runId, String replyTopic, boolean compare,
                             int parallel, Duration timeout, Consumer<String> progress) {
        List<LoggedRequest> originals = LoggedRequest.originals(reader.read(Topics.REQUESTS, window));
        Replayer.requireSeparate(replyTopic, originals);
        progress.accept(originals.size() + " requests between " + window.from() + " and " + window.to() + "; replaying into " + replyTopic);
        Map<String, ReplyEvent> replays;
        try (Replayer replayer = new Replayer(reader.bootstrapServers(), reader.clientOverrides(), replyTopic)) {
            replays = originals.isEmpty() ? Map.of() : replayer.replay(originals, runId, parallel, timeout, progress);
        }
        Map<String, AnswerView> before = compare ? originalAnswers(reader, originals, window) : Map.of();
        List<Replayed> results = new ArrayList<>();
        for (LoggedRequest r : originals) {
            String id = r.request().getRequestId();
            ReplyEvent replay = replays.get(id);
            ReplayComparison comparison = compare && replay != null
                    ? ReplayComparison.compare(id, before.get(id), AnswerView.of(replay)) : null;
            results.add(new Replayed(id, replay, comparison));
        }
        return new Report(runId, replyTopic, results);
    }

    /** The originals' answers: final reply events on their reply topics, else audit records. */
    private static Map<String, AnswerView> originalAnswers(TopicReader reader, List<LoggedRequest> originals, TimeWindow window) {
        TimeWindow since = new TimeWindow(window.from(), Instant.now());
        ReplyLog log = new ReplyLog(reader);
        Map<String, AnswerView> answers = new HashMap<>();
        for (AnswerAudit a : log.audits(since, false)) {
            answers.put(a.getRequestId(), AnswerView.of(a));
        }
        log.finalReplies(originals, since).forEach((id, e) -> answers.put(id, AnswerView.of(e)));
        return answers;
    }
}
