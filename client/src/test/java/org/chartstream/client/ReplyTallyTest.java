package org.chartstream.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class ReplyTallyTest {
    private final ReplyTally tally = new ReplyTally();

    private static ReplyEvent event(String id, int seq, ReplyType type, String text, String... rows) {
        List<Citation> citations = java.util.Arrays.stream(rows).map(row -> Citation.newBuilder().setIndex(1).setSourceId("ehr")
                .setTableName("conditions").setRowKey(row).setChunkId(row + "#0").setGeneration(1).setSourcePosition("lsn:1")
                .setScore(0.5).setText(row).build()).toList();
        return ReplyEvent.newBuilder().setRequestId(id).setCorrelationId(id).setSeq(seq).setType(type).setText(text)
                .setCitations(citations).setExtractive(true).setError(null).setFlaggedCitations(List.of()).setTsMs(0).build();
    }

    @Test
    void countsLostRequestsAndTellsIdenticalRepeatsFromConflictingOnes() {
        tally.sent("a", "c1", 0);
        tally.sent("b", "c2", 0);
        tally.sent("c", "c3", 0);
        tally.sent("lost", "c4", 0);
        tally.received(event("a", 0, ReplyType.ACCEPTED, null), 1_000_000);
        tally.received(event("a", 1, ReplyType.ANSWER, "Hypothyroidism [1]", "c1"), 5_000_000);
        tally.received(event("a", 1, ReplyType.ANSWER, "Hypothyroidism [1]", "c1"), 9_000_000); // re-run after a crash: same content
        tally.received(event("b", 1, ReplyType.ANSWER, "Hypertension [1]", "c2"), 2_000_000);
        tally.received(event("b", 1, ReplyType.ANSWER, "Hypertension [1]", "c9"), 3_000_000); // cites another row
        tally.received(event("c", 0, ReplyType.BUSY, null), 2_000_000);

        ReplyTally.Summary s = tally.summary();

        assertThat(s.requests()).isEqualTo(4);
        assertThat(s.answered()).isEqualTo(3);
        assertThat(s.lost()).isEqualTo(1);
        assertThat(s.duplicates()).isEqualTo(2);
        assertThat(s.conflictingDuplicates()).isEqualTo(1);
        assertThat(s.firstFinalTypes()).isEqualTo(Map.of(ReplyType.ANSWER, 2, ReplyType.BUSY, 1));
        assertThat(s.latenciesMs()).as("sent to first final reply").containsExactly(5.0, 2.0, 2.0);
        assertThat(tally.allAnswered(List.of("a", "b"))).isTrue();
        assertThat(tally.allAnswered(List.of("a", "lost"))).isFalse();
    }

    @Test
    void aConversationIsOutOfOrderWhenALaterTurnsFirstFinalReplyComesFirst() {
        for (String id : List.of("t1", "t2", "t3")) {
            tally.sent(id, "in-order", 0);
        }
        tally.sent("u1", "swapped", 0);
        tally.sent("u2", "swapped", 0);
        tally.received(event("t1", 1, ReplyType.ANSWER, "x"), 1);
        tally.received(event("u2", 1, ReplyType.ANSWER, "y"), 2);
        tally.received(event("t2", 1, ReplyType.ANSWER, "x"), 3);
        tally.received(event("u1", 1, ReplyType.ANSWER, "y"), 4);
        tally.received(event("t1", 1, ReplyType.ANSWER, "x"), 5); // a repeat of an earlier turn does not reorder it
        tally.received(event("t3", 1, ReplyType.ANSWER, "x"), 6);

        assertThat(tally.summary().conversationsOutOfOrder()).isEqualTo(1);
    }

    @Test
    void repeatsWithTheSameTextAreConflictingWhenTheirStructuredResultsDiffer() {
        tally.sent("s", "c1", 0);
        ReplyEvent first = event("s", 1, ReplyType.ANSWER, "17 patients");
        tally.received(ReplyEvent.newBuilder(first).setSetResult(org.chartstream.schemas.SetResult.newBuilder()
                .setOutput(org.chartstream.schemas.SetOutput.PATIENTS).setRows(21).setPatients(17).build()).build(), 1);
        tally.received(ReplyEvent.newBuilder(first).setSetResult(org.chartstream.schemas.SetResult.newBuilder()
                .setOutput(org.chartstream.schemas.SetOutput.PATIENTS).setRows(22).setPatients(17).build()).build(), 2);

        assertThat(tally.summary().duplicates()).isEqualTo(1);
        assertThat(tally.summary().conflictingDuplicates()).isEqualTo(1);
    }
}
