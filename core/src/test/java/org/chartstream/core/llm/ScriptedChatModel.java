package org.chartstream.core.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link ChatModel} for stage unit tests: returns scripted results in order and records the requests. Streaming
 * delivers a completed answer word by word. Protocol behaviour is tested against {@code OpenAiCompatibleTestServer} (models module).
 */
public final class ScriptedChatModel implements ChatModel {
    private final List<ChatResult> script;
    private final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());

    public ScriptedChatModel(ChatResult... results) {
        this.script = new ArrayList<>(List.of(results));
    }

    public static ChatResult completed(String content) {
        return new ChatResult.Completed(content, "stop", "scripted", Duration.ofMillis(1));
    }

    public static ChatResult failed(LlmFailureKind kind, String detail) {
        return new ChatResult.Failed(kind, detail, 0, 0, Duration.ofMillis(1));
    }

    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    @Override
    public String modelId() {
        return "scripted";
    }

    @Override
    public synchronized ChatResult complete(ChatRequest request) {
        requests.add(request);
        if (script.isEmpty()) {
            throw new AssertionError("no scripted result left for request " + requests.size());
        }
        return script.size() == 1 ? script.get(0) : script.remove(0);
    }

    @Override
    public ChatResult stream(ChatRequest request, Consumer<String> onToken) {
        ChatResult result = complete(request);
        if (result instanceof ChatResult.Completed c) {
            for (String piece : c.content().split("(?<= )")) {
                if (!piece.isEmpty()) {
                    onToken.accept(piece);
                }
            }
        }
        return result;
    }
}
