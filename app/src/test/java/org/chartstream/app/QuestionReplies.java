package org.chartstream.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.chartstream.client.QueryClient;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;

/** A whole embedded pipeline over a schema a test loads, asked questions as an upstream system would ask them. */
final class QuestionReplies {
    private QuestionReplies() {
    }

    /** Starts the embedded pipeline on the rows {@code loader} writes, with {@code replyTopic}, and waits until searchable. */
    static PipelineRuntime startSearchable(ChartstreamConfig config, Path dir, String name,
                                           PipelineRuntime.SourceLoader loader, String replyTopic) {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        PipelineRuntime runtime = PipelineRuntime.start(config, dir.resolve(name), loader,
                line -> System.out.println("[" + name + "] " + line));
        runtime.createTopics(Map.of(replyTopic, 1));
        runtime.awaitSearchable(Duration.ofMinutes(3));
        return runtime;
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
