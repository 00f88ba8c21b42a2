package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.app.audit.ReplayComparison.AnswerTextChange;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class ReplayComparisonTest {
    private static CitedRow cite(String row, long generation, String position) {
        return CitedRow.of("ehr:" + row + ":0:" + generation, generation, position);
    }

    @Test
    void theSameAnswerFromTheSameRowVersionsIsSame() {
        AnswerView original = new AnswerView(ReplyType.ANSWER, "[1] a", List.of(cite("medications:1", 1, "lsn:5")));
        ReplayComparison c = ReplayComparison.compare("r1", original, original);
        assertThat(c.same()).isTrue();
        assertThat(c.answerText()).isEqualTo(AnswerTextChange.SAME);
        assertThat(c.added()).isEmpty();
        assertThat(c.removed()).isEmpty();
        assertThat(c.revised()).isEmpty();
    }

    @Test
    void citationsAddedRemovedAndRevisedAreNamedByRow() {
        AnswerView original = new AnswerView(ReplyType.ANSWER, "old", List.of(
                cite("medications:1", 1, "lsn:5"), cite("medications:2", 1, "lsn:6"), cite("conditions:7", 1, "lsn:7")));
        AnswerView replay = new AnswerView(ReplyType.ANSWER, "new", List.of(
                cite("medications:1", 1, "lsn:9"), cite("conditions:7", 1, "lsn:7"), cite("medications:3", 1, "lsn:8")));
        ReplayComparison c = ReplayComparison.compare("r1", original, replay);
        assertThat(c.same()).isFalse();
        assertThat(c.added()).containsExactly("ehr:medications:3");
        assertThat(c.removed()).containsExactly("ehr:medications:2");
        assertThat(c.revised()).containsExactly("ehr:medications:1");
        assertThat(c.answerText()).isEqualTo(AnswerTextChange.CHANGED);
    }

    @Test
    void anotherOutcomeOrAnotherTextAloneIsAChange() {
        AnswerView answered = new AnswerView(ReplyType.ANSWER, "a", List.of());
        assertThat(ReplayComparison.compare("r", answered, new AnswerView(ReplyType.REFUSED, "a", List.of())).same()).isFalse();
        assertThat(ReplayComparison.compare("r", answered, new AnswerView(ReplyType.ANSWER, "b", List.of())).same()).isFalse();
    }

    @Test
    void anOriginalKnownOnlyFromItsAuditRecordHasUnknownTextAndAMissingOriginalIsNoMatch() {
        AnswerView audited = new AnswerView(ReplyType.ANSWER, null, List.of(cite("medications:1", 1, "lsn:5")));
        AnswerView replay = new AnswerView(ReplyType.ANSWER, "x", List.of(cite("medications:1", 1, "lsn:5")));
        ReplayComparison fromAudit = ReplayComparison.compare("r", audited, replay);
        assertThat(fromAudit.answerText()).isEqualTo(AnswerTextChange.UNKNOWN);
        assertThat(fromAudit.same()).isTrue();

        ReplayComparison missing = ReplayComparison.compare("r", null, replay);
        assertThat(missing.originalOutcome()).isNull();
        assertThat(missing.same()).isFalse();
        assertThat(missing.added()).containsExactly("ehr:medications:1");
    }
}
