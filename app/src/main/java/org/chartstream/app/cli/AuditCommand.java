package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.audit.AuditTrail;
import org.chartstream.app.audit.CitationDrift;
import org.chartstream.app.audit.CurrentIndex;
import org.chartstream.app.audit.ReplyLog;
import org.chartstream.app.audit.TimeWindow;
import org.chartstream.app.audit.TopicReader;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.TransportSecurity;
import org.chartstream.schemas.AnswerAudit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Lists answers with their evidence and flags citations whose rows have changed or gone since. */
@Command(name = "audit", mixinStandardHelpOptions = true, description = {
        "List the answers given in a time window with their evidence, read from the audit topic chartstream.audit: "
                + "request id, time, outcome and, per citation, the cited row (source:table:row key), chunk, generation, "
                + "source position and SHA-256 of the cited text.",
        "Each citation is checked against the index as it is now: CHANGED when the row's current chunk has other "
                + "content (hash; the source position for records without one) or another generation (re-indexed), "
                + "DELETED when the row is no longer indexed. With store.kind=lucene the check runs on a replica "
                + "materialized from chartstream.index; with documentdb on the shared store.",
        "Prints no question or record text unless --show-text is given.",
        "Exit code 0 when nothing is flagged, 3 when a citation is flagged.", ""})
public final class AuditCommand implements Callable<Integer> {
    @CommandLine.Mixin
    WindowOptions options;

    @Option(names = "--json", description = "print the audit as one JSON object (the last line)")
    boolean json;

    @Option(names = "--show-text", description = "also print the current text of each cited chunk and the searched question variants (clinical text!)")
    boolean showText;

    @Option(names = "--include-replays", description = "also list the answers given to `chartstream replay` runs")
    boolean includeReplays;

    @Override
    public Integer call() throws Exception {
        ChartstreamConfig config = options.config();
        TimeWindow window = options.window();
        String servers = options.bootstrapServers(config);
        Map<String, String> security = TransportSecurity.kafkaClientProperties(config);
        List<AnswerAudit> audits = new ReplyLog(new TopicReader(servers, security)).audits(window, includeReplays);
        RunCommand.progress(audits.size() + " audit records between " + window.from() + " and " + window.to());
        List<AuditTrail.AuditedAnswer> answers;
        Map<String, List<StoredChunk>> texts = new LinkedHashMap<>();
        try (CurrentIndex index = CurrentIndex.open(config, servers, security, RunCommand::progress)) {
            answers = AuditTrail.check(audits, row -> {
                List<StoredChunk> chunks = index.store().rowChunks(row);
                texts.put(row.id(), chunks);
                return chunks;
            });
        }
        long citations = answers.stream().mapToLong(a -> a.citations().size()).sum();
        Map<CitationDrift.Status, Long> byStatus = new LinkedHashMap<>();
        for (CitationDrift.Status s : CitationDrift.Status.values()) {
            byStatus.put(s, answers.stream().flatMap(a -> a.citations().stream()).filter(c -> c.verdict().status() == s).count());
        }
        String summary = String.format("audited %d answers with %d citations: %d current, %d changed, %d deleted",
                answers.size(), citations, byStatus.get(CitationDrift.Status.CURRENT), byStatus.get(CitationDrift.Status.CHANGED),
                byStatus.get(CitationDrift.Status.DELETED));
        if (json) {
            System.out.println(new ObjectMapper().writeValueAsString(jsonOf(answers, audits, texts, byStatus, window)));
        } else {
            print(answers, audits, texts);
            System.out.println(summary);
        }
        return byStatus.get(CitationDrift.Status.CURRENT) == citations ? 0 : 3;
    }

    private void print(List<AuditTrail.AuditedAnswer> answers, List<AnswerAudit> audits, Map<String, List<StoredChunk>> texts) {
        for (int i = 0; i < answers.size(); i++) {
            AuditTrail.AuditedAnswer a = answers.get(i);
            System.out.printf("%s  %s  %s  citations=%d flagged=%d%n", Instant.ofEpochMilli(a.tsMs()), a.requestId(), a.outcome(),
                    a.citations().size(), a.flagged());
            if (showText) {
                audits.get(i).getVariants().forEach(v -> System.out.println("    searched: " + v));
            }
            for (AuditTrail.CheckedCitation c : a.citations()) {
                    System.out.printf("    %-7s %s chunk=%d gen=%d pos=%s sha256=%s%s%n", c.verdict().status(), c.cited().rowId(),
                        c.cited().chunkIndex(), c.cited().generation(), c.cited().sourcePosition(),
                        c.cited().contentSha256().isEmpty() ? "-" : c.cited().contentSha256().substring(0, 12),
                        c.verdict().detail().isEmpty() ? "" : "  (" + c.verdict().detail() + ")");
                if (showText) {
                    currentText(texts, c).ifPresent(t -> System.out.println("            now: " + t.replace('\n', ' ')));
                }
            }
        }
    }

    private static java.util.Optional<String> currentText(Map<String, List<StoredChunk>> texts, AuditTrail.CheckedCitation c) {
        return texts.getOrDefault(c.cited().rowId(), List.of()).stream()
                .filter(s -> s.chunkIndex() == c.cited().chunkIndex()).map(StoredChunk::text).findFirst();
    }

    private Map<String, Object> jsonOf(List<AuditTrail.AuditedAnswer> answers, List<AnswerAudit> audits, Map<String, List<StoredChunk>> texts,
                                       Map<CitationDrift.Status, Long> byStatus, TimeWindow window) {
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            AuditTrail.AuditedAnswer a = answers.get(i);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("request_id", a.requestId());
            answer.put("ts", Instant.ofEpochMilli(a.tsMs()).toString());
            answer.put("outcome", a.outcome().name());
            if (showText) {
                answer.put("variants", audits.get(i).getVariants());
            }
            List<Object> cited = new ArrayList<>();
            for (AuditTrail.CheckedCitation c : a.citations()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("row", c.cited().rowId());
                m.put("chunk_index", c.cited().chunkIndex());
                m.put("generation", c.cited().generation());
                m.put("source_position", c.cited().sourcePosition());
                m.put("content_sha256", c.cited().contentSha256().isEmpty() ? null : c.cited().contentSha256());
                m.put("status", c.verdict().status().name());
                m.put("current_generation", c.verdict().currentGeneration());
                m.put("current_source_position", c.verdict().currentPosition());
                m.put("current_content_sha256", c.verdict().currentContentSha256());
                if (!c.verdict().detail().isEmpty()) {
                    m.put("detail", c.verdict().detail());
                }
                if (showText) {
                    m.put("current_text", currentText(texts, c).orElse(null));
                }
                cited.add(m);
            }
            answer.put("citations", cited);
            list.add(answer);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("from", window.from().toString());
        summary.put("to", window.to().toString());
        summary.put("answers", answers.size());
        byStatus.forEach((s, n) -> summary.put(s.name().toLowerCase(java.util.Locale.ROOT), n));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("answers", list);
        out.put("summary", summary);
        return out;
    }
}
