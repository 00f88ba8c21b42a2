package org.chartstream.app;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.chartstream.client.QueryClient;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;

/** Asks the pipeline a question as an upstream system would and returns its final reply event. */
final class QuestionReplies {
    private QuestionReplies() {
    }

    /** The last reply to {@code question}, asked in a conversation of its own. */
    static ReplyEvent last(QueryClient client, String question) throws Exception {
        return last(client, question, UUID.randomUUID().toString());
    }

    /** The last reply to {@code question}, asked in {@code conversation} (a follow-up shares its first turn's id). */
    static ReplyEvent last(QueryClient client, String question, String conversation) throws Exception {
        QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                .setConversationId(conversation).setUserId("it").setQuestion(question).setTopK(5).build();
        List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
        return events.get(events.size() - 1);
    }
}
