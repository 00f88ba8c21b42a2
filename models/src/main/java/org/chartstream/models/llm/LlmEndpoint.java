package org.chartstream.models.llm;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the local OpenAI-compatible server is (Foundry Local, Ollama, llama.cpp server, vLLM) and how long to wait.
 *
 * @param baseUrl        the API root including its version path, e.g. {@code http://127.0.0.1:11434/v1}; requests go
 *                       to {@code <baseUrl>/chat/completions} and nowhere else
 * @param model          the model name the server knows
 * @param connectTimeout longest wait for the TCP connection
 * @param readTimeout    longest silence: before the response starts and between streamed chunks (a non-streamed
 *                       answer arrives only when it is complete, so this also bounds its generation time)
 * @param totalDeadline  longest a call may take from start to the last byte, unless the request sets a shorter one
 * @param apiKey         sent as a bearer token when not {@code null} (vLLM with {@code --api-key}); never logged
 */
public record LlmEndpoint(URI baseUrl, String model, Duration connectTimeout, Duration readTimeout,
                          Duration totalDeadline, String apiKey) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_TOTAL_DEADLINE = Duration.ofSeconds(120);

    public LlmEndpoint {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String scheme = baseUrl.getScheme() == null ? "" : baseUrl.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("LLM base URL must be http or https, was " + baseUrl);
        }
        if (baseUrl.getHost() == null || baseUrl.getRawUserInfo() != null || baseUrl.getRawQuery() != null
                || baseUrl.getRawFragment() != null) {
            throw new IllegalArgumentException("LLM base URL must be scheme://host[:port][/path] without user info, query"
                    + " or fragment, was " + baseUrl);
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("LLM model name must not be blank");
        }
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(readTimeout, "readTimeout");
        requirePositive(totalDeadline, "totalDeadline");
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
    }

    /** The endpoint with the default timeouts and no API key. */
    public static LlmEndpoint of(String baseUrl, String model) {
        return new LlmEndpoint(URI.create(baseUrl), model, DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT,
                DEFAULT_TOTAL_DEADLINE, null);
    }

    public LlmEndpoint withTimeouts(Duration newConnectTimeout, Duration newReadTimeout, Duration newTotalDeadline) {
        return new LlmEndpoint(baseUrl, model, newConnectTimeout, newReadTimeout, newTotalDeadline, apiKey);
    }

    public LlmEndpoint withApiKey(String newApiKey) {
        return new LlmEndpoint(baseUrl, model, connectTimeout, readTimeout, totalDeadline, newApiKey);
    }

    /** The one URL a client of this endpoint contacts. */
    public URI chatCompletionsUrl() {
        String base = baseUrl.toString();
        return URI.create(base.endsWith("/") ? base + "chat/completions" : base + "/chat/completions");
    }

    /** Without the API key. */
    @Override
    public String toString() {
        return "LlmEndpoint[" + baseUrl + ", model=" + model + ", connect=" + connectTimeout.toMillis() + " ms, read="
                + readTimeout.toMillis() + " ms, deadline=" + totalDeadline.toMillis() + " ms"
                + (apiKey == null ? "" : ", api key set") + "]";
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
