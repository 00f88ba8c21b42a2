package org.chartstream.app.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.CitedChunk;
import org.chartstream.schemas.ReplyType;

/** Answers with their evidence, each cited chunk checked against the store's current chunks of its row. */
public final class AuditTrail {

    /** One cited chunk and whether it still stands. */
    public record CheckedCitation(CitedRow cited, CitationDrift.Verdict verdict) {
    }

    /** One answered (or refused, rejected) request: ids, time, outcome and its checked citations. */
    public record AuditedAnswer(String requestId, long tsMs, ReplyType outcome, List<CheckedCitation> citations) {
        public long flagged() {
            return citations.stream().filter(c -> c.verdict().flagged()).count();
        }
    }

    private AuditTrail() {
    }

    /**
     * Checks every citation of {@code audits}; {@code currentChunks} gives the store's active chunks of a row (each
     * row is looked up once).
     */
    public static List<AuditedAnswer> check(List<AnswerAudit> audits, Function<RowRef, List<StoredChunk>> currentChunks) {
        Map<RowRef, List<StoredChunk>> rows = new HashMap<>();
        List<AuditedAnswer> out = new ArrayList<>(audits.size());
        for (AnswerAudit a : audits) {
            List<CheckedCitation> checked = new ArrayList<>();
            for (CitedChunk c : a.getCited()) {
                CitedRow cited = CitedRow.of(c.getChunkId(), c.getGeneration(), c.getSourcePosition(), c.getContentSha256());
                List<StoredChunk> current = rows.computeIfAbsent(cited.row(), currentChunks);
                checked.add(new CheckedCitation(cited, CitationDrift.check(cited, current)));
            }
            out.add(new AuditedAnswer(a.getRequestId(), a.getTsMs(), a.getOutcome(), checked));
        }
        return out;
    }
}
