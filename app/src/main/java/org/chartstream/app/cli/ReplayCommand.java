package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.chartstream.app.audit.ReplayComparison;
import org.chartstream.app.audit.ReplayRun;
import org.chartstream.app.audit.TimeWindow;
import org.chartstream.app.audit.TopicReader;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Re-runs past requests into a reply topic of their own and compares the answers with the originals. */
@Command(name = "replay", mixinStandardHelpOptions = true, description = {
        "Re-run the requests posted on chartstream.requests in a time window against the pipeline as it is now.",
        "Replies go to a reply topic of the run's own (chartstream.replay.<run-id> unless --reply-topic), never to "
                + "a topic the originals were answered on. A replay keeps the question, mode, top-k, filter and user; it "
                + "gets the request id <original>#replay-<run-id>, a fresh conversation per original conversation (replayed "
                + "in order) and no deadline. Earlier replays are never replayed.",
        "With --compare each replay is diffed with its original (its final reply, else its audit record): outcome, "
                + "answer text changed or not, rows cited only now (+), no longer (-), or in another row version (~).",
        "Prints ids, outcomes and row keys only, never question or answer text.",
        "Exit code 0 when every request got a replay answer (and, with --compare, all are the same), 3 otherwise.", ""})
public final class ReplayCommand implements Callable<Integer> {
    @CommandLine.Mixin
    WindowOptions options;

    @Option(names = "--compare", description = "diff each replay's answer and citations with the original's")
    boolean compare;

    @Option(names = "--json", description = "print the result as one JSON object (the last line)")
    boolean json;

    @Option(names = "--reply-topic", paramLabel = "TOPIC", description = "reply topic of the replays (default: chartstream.replay.<run-id>)")
    String replyTopic;

    @Option(names = "--parallel", description = "replays in flight at once (default: ${DEFAULT-VALUE}); `busy` replies are retried",
            defaultValue = "2")
    int parallel;

    @Option(names = "--timeout", description = "seconds for the whole replay (default: ${DEFAULT-VALUE})", defaultValue = "600")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = options.config();
        TimeWindow window = options.window();
        if (parallel < 1) {
            throw options.usageError("--parallel must be at least 1");
        }
        String runId = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())
                + "-" + UUID.randomUUID().toString().substring(0, 6);
        String topic = replyTopic != null ? replyTopic : ReplayRun.defaultReplyTopic(runId);
        TopicReader reader = new TopicReader(options.bootstrapServers(config), TransportSecurity.kafkaClientProperties(config));
        ReplayRun.Report report;
        try {
            report = ReplayRun.run(reader, window, runId, topic, compare, parallel, Duration.ofSeconds(timeoutSeconds), RunCommand::progress);
        } catch (IllegalArgumentException e) {
            throw options.usageError(e.getMessage());
        }
        String summary = String.format("replay %s: %d requests, %d answered into %s", report.runId(), report.results().size(),
                report.answered(), report.replyTopic())
                + (compare ? String.format("; %d same, %d changed", report.same(), report.changed()) : "");
        if (json) {
            System.out.println(new ObjectMapper().writeValueAsString(jsonOf(report)));
        } else {
            for (ReplayRun.Replayed r : report.results()) {
                System.out.println(line(r));
            }
            System.out.println(summary);
        }
        boolean complete = report.answered() == report.results().size();
        return complete && (!compare || report.changed() == 0) ? 0 : 3;
    }

    private static String line(ReplayRun.Replayed r) {
        if (r.replay() == null) {
            return r.requestId() + "  no replay answer within the timeout";
        }
        ReplayComparison c = r.comparison();
        if (c == null) {
            return r.requestId() + "  " + r.replay().getType() + "  citations=" + r.replay().getCitations().size();
        }
        StringBuilder s = new StringBuilder(r.requestId()).append("  ").append(c.same() ? "same" : "changed")
                .append("  outcome ").append(c.originalOutcome() == null ? "?" : c.originalOutcome()).append(" -> ").append(c.replayOutcome())
                .append("  answer-text ").append(c.answerText().name().toLowerCase(java.util.Locale.ROOT));
        c.added().forEach(row -> s.append("  +").append(row));
        c.removed().forEach(row -> s.append("  -").append(row));
        c.revised().forEach(row -> s.append("  ~").append(row));
        return s.toString();
    }

    private static Map<String, Object> jsonOf(ReplayRun.Report report) {
        List<Object> requests = new ArrayList<>();
        for (ReplayRun.Replayed r : report.results()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("request_id", r.requestId());
            m.put("replay_outcome", r.replay() == null ? null : r.replay().getType().name());
            ReplayComparison c = r.comparison();
            if (c != null) {
                m.put("status", c.same() ? "same" : "changed");
                m.put("original_outcome", c.originalOutcome() == null ? null : c.originalOutcome().name());
                m.put("answer_text", c.answerText().name().toLowerCase(java.util.Locale.ROOT));
                m.put("citations_added", c.added());
                m.put("citations_removed", c.removed());
                m.put("citations_revised", c.revised());
            }
            requests.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("run_id", report.runId());
        out.put("reply_topic", report.replyTopic());
        out.put("requests", requests);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("requests", report.results().size());
        summary.put("answered", report.answered());
        summary.put("same", report.same());
        summary.put("changed", report.changed());
        out.put("summary", summary);
        return out;
    }
}
