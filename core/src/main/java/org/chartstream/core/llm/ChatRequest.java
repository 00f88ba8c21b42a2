package org.chartstream.core.llm;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One chat-completions call.
 *
 * @param messages    the conversation, at least one message
 * @param temperature sampling temperature (0 for the most deterministic output)
 * @param maxTokens   most tokens to generate; 0 leaves it to the server
 * @param deadline    longest the whole call may take; {@code null} means the endpoint's total deadline (a shorter
 *                    one wins)
 */
public record ChatRequest(List<ChatMessage> messages, double temperature, int maxTokens, Duration deadline) {

    public ChatRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        if (temperature < 0 || temperature > 2) {
            throw new IllegalArgumentException("temperature must be within [0, 2], was " + temperature);
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
        if (deadline != null && (deadline.isNegative() || deadline.isZero())) {
            throw new IllegalArgumentException("deadline must be positive, was " + deadline);
        }
    }

    /** Temperature 0, server-chosen length, the endpoint's deadline. */
    public static ChatRequest of(List<ChatMessage> messages) {
        return new ChatRequest(messages, 0, 0, null);
    }

    public ChatRequest withTemperature(double newTemperature) {
        return new ChatRequest(messages, newTemperature, maxTokens, deadline);
    }

    public ChatRequest withMaxTokens(int newMaxTokens) {
        return new ChatRequest(messages, temperature, newMaxTokens, deadline);
    }

    public ChatRequest withDeadline(Duration newDeadline) {
        return new ChatRequest(messages, temperature, maxTokens, newDeadline);
    }
}
