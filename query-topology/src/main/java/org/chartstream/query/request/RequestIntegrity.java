package org.chartstream.query.request;

import java.time.Duration;
import java.util.Objects;

/**
 * The rules that keep hostile requests from corrupting anything: where replies may go, and how long a request id
 * stays taken.
 *
 * @param replyTopics     the reply-topic allow-list and the pipeline's own topics ({@code query.reply-topics})
 * @param requestIdWindow how long an admitted request id is remembered ({@code query.request-id-window-ms})
 */
public record RequestIntegrity(ReplyTopicPolicy replyTopics, Duration requestIdWindow) {
    public static final Duration DEFAULT_REQUEST_ID_WINDOW = Duration.ofDays(1);

    public RequestIntegrity {
        Objects.requireNonNull(replyTopics, "replyTopics");
        if (requestIdWindow.isNegative() || requestIdWindow.isZero()) {
            throw new IllegalArgumentException("the request id window must be positive, was " + requestIdWindow);
        }
    }

    public static RequestIntegrity defaults() {
        return new RequestIntegrity(ReplyTopicPolicy.defaults(), DEFAULT_REQUEST_ID_WINDOW);
    }
}
