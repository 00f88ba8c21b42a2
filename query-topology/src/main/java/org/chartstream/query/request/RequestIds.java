package org.chartstream.query.request;

import java.time.Duration;
import org.chartstream.schemas.RequestIdEntry;

/**
 * How a request id relates to the ones admitted within the window ({@code query.request-id-window-ms}). An id is
 * taken when a request is admitted (replied {@code accepted}); a request rejected by validation or answered
 * {@code busy} takes none, so it can be sent again, corrected, under the same id.
 */
public final class RequestIds {
    private RequestIds() {
    }

    public enum Seen {
        /** not taken (or taken longer ago than the window): admit it */
        FIRST,
        /** same id, same content, answered: send the original final reply again */
        REPEAT,
        /** same id, same content, still being answered: the one answer will do */
        IN_FLIGHT,
        /** same id, other content: an error, not a second answer */
        CONFLICT
    }

    public static Seen classify(RequestIdEntry taken, String fingerprint, long nowMs, Duration window) {
        if (taken == null || expired(taken, nowMs, window)) {
            return Seen.FIRST;
        }
        if (!taken.getFingerprint().equals(fingerprint)) {
            return Seen.CONFLICT;
        }
        return taken.getOutcome() == null ? Seen.IN_FLIGHT : Seen.REPEAT;
    }

    /** An answered entry past the window; one still in flight never expires (its answer must find its retries). */
    public static boolean expired(RequestIdEntry taken, long nowMs, Duration window) {
        return taken.getOutcome() != null && nowMs - taken.getFirstSeenMs() >= window.toMillis();
    }

    /** The error for a repeated id with other content; names the field, not the content. */
    public static RequestCheck.Problem conflict(String requestId, Duration window) {
        return new RequestCheck.Problem("request_id", "duplicate request id: '" + requestId + "' was taken within the last "
                + describe(window) + " by a request with different content; send a new request id");
    }

    static String describe(Duration window) {
        if (window.toHours() > 0 && window.toMinutesPart() == 0 && window.toSecondsPart() == 0) {
            return window.toHours() + " h";
        }
        if (window.toMinutes() > 0 && window.toSecondsPart() == 0) {
            return window.toMinutes() + " min";
        }
        return window.toMillis() + " ms";
    }
}
