package org.chartstream.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.SearchMode;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.Test;

class ReplayerTest {
    private static final QueryRequest ORIGINAL = QueryRequest.newBuilder().setRequestId("req-1").setConversationId("conv-9")
            .setUserId("dr-a").setQuestion("q").setMode(SearchMode.LEXICAL).setTopK(4)
            .setFilter(RetrievalFilterSpec.newBuilder().setTables(List.of("medications")).build()).setDeadlineMs(1L).build();

    @Test
    void aReplayKeepsWhatWasAskedAndGetsItsOwnIdsAndNoDeadline() {
        QueryRequest replay = Replayer.replayOf(ORIGINAL, "run7");
        assertThat(replay.getRequestId()).isEqualTo("req-1#replay-run7");
        assertThat(LoggedRequest.isReplay(replay.getRequestId())).isTrue();
        assertThat(LoggedRequest.isReplay(ORIGINAL.getRequestId())).isFalse();
        assertThat(replay.getConversationId()).isEqualTo("replay-run7-conv-9");
        assertThat(replay.getDeadlineMs()).isNull();
        assertThat(replay.getQuestion()).isEqualTo("q");
        assertThat(replay.getUserId()).isEqualTo("dr-a");
        assertThat(replay.getMode()).isEqualTo(SearchMode.LEXICAL);
        assertThat(replay.getTopK()).isEqualTo(4);
        assertThat(replay.getFilter().getTables()).containsExactly("medications");
    }

    @Test
    void aReplayNeverAnswersOnAnOriginalReplyTopic() {
        List<LoggedRequest> originals = List.of(new LoggedRequest(0, ORIGINAL, "app.replies"));
        assertThatThrownBy(() -> Replayer.requireSeparate("app.replies", originals))
                .hasMessageContaining("--reply-topic app.replies is the reply topic of request req-1");
        Replayer.requireSeparate("chartstream.replay.run7", originals);
        for (String shared : List.of(Topics.REPLIES, Topics.REQUESTS, Topics.AUDIT)) {
            assertThatThrownBy(() -> new Replayer("localhost:1", Map.of(), shared)).hasMessageContaining("must not be " + shared);
        }
    }
}
