package org.chartstream.models.llm;

import org.chartstream.core.llm.ChatResult;
import org.chartstream.core.llm.LlmFailureKind;

/** A failed chat call on its way to becoming a {@link ChatResult.Failed}. */
final class ChatCallFailure extends Exception {
    final LlmFailureKind kind;
    final int httpStatus;

    ChatCallFailure(LlmFailureKind kind, String detail, int httpStatus) {
        super(detail, null, false, false);
        this.kind = kind;
        this.httpStatus = httpStatus;
    }
}
