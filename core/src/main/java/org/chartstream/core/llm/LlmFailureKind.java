package org.chartstream.core.llm;

/** Why a chat call produced no usable answer. */
public enum LlmFailureKind {
    /** Nothing answered at the base URL: connection refused, host unreachable, connect timeout, dropped connection. */
    UNAVAILABLE,
    /** Connected, but the answer did not come (or stopped coming) within the read timeout or the call's deadline. */
    TIMEOUT,
    /** The server answered with a non-2xx status or reported an error object. */
    HTTP_ERROR,
    /** The server answered 2xx with a body that is not a chat completion (bad JSON, no content, broken stream). */
    MALFORMED
}
