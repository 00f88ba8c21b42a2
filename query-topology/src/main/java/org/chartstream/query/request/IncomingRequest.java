package org.chartstream.query.request;

import org.chartstream.schemas.PendingRequest;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyAddress;

/**
 * A request as it arrived, read by {@link RequestReader}.
 *
 * @param replyTo where its replies go: the {@code reply-to} topic it named, or the default reply topic when that one
 *                cannot be used; with its {@code correlation-id}
 * @param request the decoded request, or null when the bytes are not one
 * @param problem what is wrong with it, or null
 */
public record IncomingRequest(ReplyAddress replyTo, QueryRequest request, RequestCheck.Problem problem) {
    private static final String UNKNOWN = "?";

    public IncomingRequest withProblem(RequestCheck.Problem other) {
        return new IncomingRequest(replyTo, request, other);
    }

    /** What its replies and dead letters are keyed by: the request id, else the correlation id, else "unknown". */
    public String replyKey() {
        String requestId = request == null ? null : request.getRequestId();
        if (requestId != null && !requestId.isBlank()) {
            return requestId;
        }
        return replyTo.getCorrelationId() != null ? replyTo.getCorrelationId() : "unknown";
    }

    public String conversationId() {
        return request == null ? UNKNOWN : request.getConversationId();
    }

    public String userId() {
        return request == null ? UNKNOWN : request.getUserId();
    }

    /**
     * The admitted request as it waits for its answer: its question normalised, seq 1 its next reply's.
     *
     * @param arrivalOffset the request's offset on its request-topic partition (the order a restart resumes in)
     */
    public PendingRequest pending(long receivedMs, long arrivalOffset) {
        QueryRequest normalised = QueryRequest.newBuilder(request).setQuestion(QuestionText.normalise(request.getQuestion())).build();
        return PendingRequest.newBuilder().setRequest(normalised).setReplyTo(replyTo.getReplyTo())
                .setCorrelationId(replyTo.getCorrelationId()).setReceivedTsMs(receivedMs).setNextSeq(1).setArrivalOffset(arrivalOffset).build();
    }
}
