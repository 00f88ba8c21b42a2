package org.chartstream.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.Test;

class ReplyDeduplicatorTest {
    private static ReplyEvent event(int seq, ReplyType type) {
        return ReplyEvent.newBuilder().setRequestId("r1").setCorrelationId("c1").setSeq(seq).setType(type).setText(null)
                .setCitations(List.of()).setExtractive(false).setError(null).setFlaggedCitations(List.of()).setTsMs(0).build();
    }

    private static List<ReplyType> seen(ReplyEvent... events) {
        ReplyDeduplicator dedupe = new ReplyDeduplicator();
        return Stream.of(events).filter(dedupe::isNew).map(ReplyEvent::getType).toList();
    }

    @Test
    void aReplySentAgainAfterARestartIsSeenOnce() {
        // the run's replies, a crash before the commit, the re-run's replies with the same seqs
        assertThat(seen(event(0, ReplyType.ACCEPTED), event(1, ReplyType.CITATIONS),
                event(0, ReplyType.ACCEPTED), event(1, ReplyType.CITATIONS), event(2, ReplyType.ANSWER)))
                .containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
    }

    @Test
    void nothingAfterTheFirstFinalReplyNotEvenADuplicateOfIt() {
        assertThat(seen(event(0, ReplyType.ACCEPTED), event(1, ReplyType.CITATIONS), event(2, ReplyType.ANSWER),
                event(1, ReplyType.CITATIONS), event(2, ReplyType.ANSWER), event(3, ReplyType.TOKEN)))
                .containsExactly(ReplyType.ACCEPTED, ReplyType.CITATIONS, ReplyType.ANSWER);
    }

    @Test
    void aFinalReplyUnderASeqAlreadySeenStillEndsTheRequest() {
        // accepted, then a crash before the commit: read again, the request found the limit reached
        assertThat(seen(event(0, ReplyType.ACCEPTED), event(0, ReplyType.BUSY)))
                .containsExactly(ReplyType.ACCEPTED, ReplyType.BUSY);
    }
}
