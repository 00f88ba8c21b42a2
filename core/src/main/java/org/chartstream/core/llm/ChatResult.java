package org.chartstream.core.llm;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/** The outcome of one chat call: the completed answer, or why there is none. */
public sealed interface ChatResult permits ChatResult.Completed, ChatResult.Failed {

    /** Time from the call to its outcome. */
    Duration elapsed();

    /**
     * The model answered.
     *
     * @param content      the whole answer (for a streamed call: every token delivered, concatenated)
     * @param finishReason the server's {@code finish_reason} ({@code stop}, {@code length}, …), or {@code null}
     * @param model        the model the server says answered, or {@code null}
     */
    record Completed(String content, String finishReason, String model, Duration elapsed) implements ChatResult {
        public Completed {
            Objects.requireNonNull(content, "content");
        }

        /** Size only: the answer text stays out of logs. */
        @Override
        public String toString() {
            return "Completed[" + content.length() + " chars, finish=" + finishReason + ", " + elapsed.toMillis() + " ms]";
        }
    }

    /**
     * No usable answer.
     *
     * @param detail          what happened, without any message or answer text
     * @param httpStatus      the HTTP status when there was one, else 0
     * @param tokensDelivered tokens already passed to the caller of a streamed call before it failed
     */
    record Failed(LlmFailureKind kind, String detail, int httpStatus, int tokensDelivered, Duration elapsed)
            implements ChatResult {
        public Failed {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }

        /** {@code timeout: no response within 200 ms}: for audit reasons. */
        public String describe() {
            return kind.name().toLowerCase(Locale.ROOT) + ": " + detail;
        }
    }
}
