package org.chartstream.retrieval.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.TokenCounter;

/**
 * Shortens a text to at most a number of model tokens, cutting between words so no word is split into stray word
 * pieces; a first word longer than the whole budget is cut between characters. Works with any {@link TokenCounter}
 * by binary search over the candidate cut points (a prefix never has more tokens than a longer prefix).
 */
public final class TokenTruncation {

    /** A possibly shortened text. */
    public record Truncated(String text, int tokens, boolean truncated) {
        /** Sizes only. */
        @Override
        public String toString() {
            return "Truncated[" + text.length() + " chars, " + tokens + " tokens, truncated=" + truncated + "]";
        }
    }

    private TokenTruncation() {
    }

    public static Truncated truncate(TokenCounter counter, String text, int maxTokens) {
        Objects.requireNonNull(counter, "counter");
        Objects.requireNonNull(text, "text");
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
        int whole = counter.count(text);
        if (whole <= maxTokens) {
            return new Truncated(text, whole, false);
        }
        Truncated byWords = longestFitting(counter, text, wordEnds(text), maxTokens);
        if (byWords != null) {
            return byWords;
        }
        Truncated byChars = longestFitting(counter, text, charEnds(text), maxTokens);
        return byChars != null ? byChars : new Truncated("", 0, true);
    }

    private static Truncated longestFitting(TokenCounter counter, String text, List<Integer> cuts, int maxTokens) {
        int lo = 0;
        int hi = cuts.size() - 1;
        Truncated best = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            String prefix = text.substring(0, cuts.get(mid)).stripTrailing();
            int tokens = counter.count(prefix);
            if (tokens <= maxTokens) {
                best = new Truncated(prefix, tokens, true);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return best;
    }

    /** Ends of words: positions where non-whitespace is followed by whitespace. */
    private static List<Integer> wordEnds(String text) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 1; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i)) && !Character.isWhitespace(text.charAt(i - 1))) {
                ends.add(i);
            }
        }
        return ends;
    }

    /** Code point boundaries, so a surrogate pair is never split. */
    private static List<Integer> charEnds(String text) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 1; i < text.length(); i++) {
            if (!Character.isLowSurrogate(text.charAt(i))) {
                ends.add(i);
            }
        }
        return ends;
    }
}
