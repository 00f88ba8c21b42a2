package org.chartstream.app.audit;

import java.util.List;
import org.chartstream.schemas.AnswerAudit;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;

/**
 * What a request was answered with, for comparison: the final outcome, the answer text (null when only the audit
 * record is known) and the cited chunks.
 */
public record AnswerView(ReplyType outcome, String text, List<CitedRow> citations) {

    /** From the final reply event of a request (its citation texts may be trimmed to the context budget: no hashes). */
    public static AnswerView of(ReplyEvent finalEvent) {
        return new AnswerView(finalEvent.getType(), finalEvent.getText() == null ? "" : finalEvent.getText(),
                finalEvent.getCitations().stream()
                        .map(c -> CitedRow.of(c.getChunkId(), c.getGeneration(), c.getSourcePosition())).toList());
    }

    /** From the audit record, when the original reply is no longer readable: no answer text. */
    public static AnswerView of(AnswerAudit audit) {
        return new AnswerView(audit.getOutcome(), null,
                audit.getCited().stream().map(c -> CitedRow.of(c.getChunkId(), c.getGeneration(), c.getSourcePosition(), c.getContentSha256())).toList());
    }
}
