package org.chartstream.query.request;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.chartstream.core.store.TableRef;
import org.chartstream.query.memory.ConversationMemories;
import org.chartstream.schemas.ConversationMemory;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyAddress;
import org.chartstream.schemas.Topics;
import org.chartstream.schemas.serde.AvroSerde;

/**
 * Reads a request record: its reply address from the headers, the request from the value, and the first problem
 * found, checked in this order: the {@code reply-to} topic, the value's encoding, the fields ({@link RequestCheck}),
 * the conversation's owner.
 */
public final class RequestReader {
    private final AvroSerde<QueryRequest> requests = AvroSerde.of(QueryRequest.class);
    private final ReplyTopicPolicy policy;
    private final ReplyTopics topics;
    private final int maxQuestionChars;
    private final int maxTopK;
    private final Supplier<Set<TableRef>> indexed;

    /** @param indexed the tables the index holds, asked only for a filter that names tables or sources */
    public RequestReader(ReplyTopicPolicy policy, ReplyTopics topics, int maxQuestionChars, int maxTopK,
                         Supplier<Set<TableRef>> indexed) {
        this.policy = policy;
        this.topics = topics;
        this.maxQuestionChars = maxQuestionChars;
        this.maxTopK = maxTopK;
        this.indexed = indexed;
    }

    /** @param memories the stored conversation by id (null for one not seen yet) */
    public IncomingRequest read(Headers headers, byte[] value, Function<String, ConversationMemory> memories) {
        String requestedReplyTo = header(headers, Topics.HEADER_REPLY_TO, Topics.REPLIES);
        String correlationId = header(headers, Topics.HEADER_CORRELATION_ID, null);
        RequestCheck.Problem topicProblem = RequestCheck.replyTopicProblem(requestedReplyTo, policy, topics);
        // a reply that cannot go where it was asked goes to the default reply topic; the dead letter names why
        ReplyAddress replyTo = new ReplyAddress(topicProblem == null ? requestedReplyTo : Topics.REPLIES, correlationId);
        QueryRequest request = decode(value);
        if (request == null) {
            return new IncomingRequest(replyTo, null, new RequestCheck.Problem("value",
                    "the message is not a QueryRequest (expected Avro single-object encoding)"));
        }
        RequestCheck.Problem problem = topicProblem != null ? topicProblem
                : RequestCheck.problem(request, maxQuestionChars, maxTopK, indexed);
        if (problem == null && ConversationMemories.ownedByAnother(memories.apply(request.getConversationId()), request.getUserId())) {
            problem = new RequestCheck.Problem("conversation_id",
                    "conversation '" + request.getConversationId() + "' belongs to another user");
        }
        return new IncomingRequest(replyTo, request, problem);
    }

    private QueryRequest decode(byte[] value) {
        try {
            return value == null ? null : requests.tryDeserialize(value);
        } catch (RuntimeException e) { // whatever the bytes are, they must not stop the stream thread
            return null;
        }
    }

    private static String header(Headers headers, String name, String fallback) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? fallback : new String(h.value(), StandardCharsets.UTF_8);
    }
}
