package org.chartstream.core.llm;

import java.util.function.Consumer;

/**
 * The local generation model behind a chat-completions endpoint. Calls never throw for a failing endpoint: every
 * failure comes back as a {@link ChatResult.Failed} with its {@link LlmFailureKind}.
 *
 * <p>Implementations are thread-safe.
 */
public interface ChatModel {

    /** The model name sent with every request. */
    String modelId();

    /** One call, the whole answer at once. */
    ChatResult complete(ChatRequest request);

    /**
     * One streamed call: {@code onToken} receives each piece of the answer as it arrives, on the calling thread;
     * the result then carries the whole answer, or the failure and how many pieces were delivered before it.
     */
    ChatResult stream(ChatRequest request, Consumer<String> onToken);
}
