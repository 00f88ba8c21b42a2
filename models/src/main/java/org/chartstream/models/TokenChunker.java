package org.chartstream.models;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Splits text into windows of at most {@code windowTokens} tokens of the model's own tokenizer (special tokens not
 * counted, so a window plus [CLS]/[SEP] fits the model), consecutive windows sharing about {@code overlapTokens}
 * tokens.
 *
 * <p>Cuts fall on token boundaries and are mapped back to the original text through the tokenizer's character
 * offsets, so a chunk is an exact substring of the input. Within the last quarter of a window the chunker prefers, in
 * this order, the last sentence end or line break, then the last whitespace between words, then the last word
 * boundary; windows start on a word too when one is close. A chunk is re-counted before it is emitted and shortened
 * if it would exceed the window (only possible when a single "word" is longer than the window).
 *
 * <p>Shares the {@link ModelTokenizer} it was built with (closing the embedder that owns the tokenizer makes this
 * chunker unusable). Thread-safe.
 */
public final class TokenChunker {

    /** Overlap used by {@link #forModel}. */
    public static final int DEFAULT_OVERLAP_TOKENS = 32;

    /**
     * One chunk: {@code text} equals {@code source.substring(start, end)}.
     *
     * @param tokenCount tokens of {@code text}, special tokens excluded
     */
    public record Chunk(String text, int start, int end, int tokenCount) {}

    private static final int WORD_BOUNDARY = 1;
    private static final int WHITESPACE = 2;
    private static final int SENTENCE_OR_LINE = 3;
    private static final int MAX_START_BACKTRACK = 16;

    private final ModelTokenizer tokenizer;
    private final int windowTokens;
    private final int overlapTokens;
    private final int leadTokens;

    /**
     * @param windowTokens  most tokens per chunk, special tokens excluded (at least 1)
     * @param overlapTokens tokens shared by consecutive chunks (0 ≤ overlap &lt; window)
     */
    public TokenChunker(ModelTokenizer tokenizer, int windowTokens, int overlapTokens) {
        this(tokenizer, windowTokens, overlapTokens, 0);
    }

    /**
     * @param leadTokens most tokens of a long body's opening that {@link #chunkUnderHeader} repeats in every chunk
     *                   (0: none; at most a quarter of the window is used)
     */
    public TokenChunker(ModelTokenizer tokenizer, int windowTokens, int overlapTokens, int leadTokens) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        if (leadTokens < 0) {
            throw new IllegalArgumentException("leadTokens must not be negative, was " + leadTokens);
        }
        this.leadTokens = leadTokens;
        if (windowTokens < 1) {
            throw new IllegalArgumentException("windowTokens must be positive, was " + windowTokens);
        }
        if (overlapTokens < 0 || overlapTokens >= windowTokens) {
            throw new IllegalArgumentException("overlapTokens must be in [0, windowTokens), was " + overlapTokens
                    + " with windowTokens " + windowTokens);
        }
        this.windowTokens = windowTokens;
        this.overlapTokens = overlapTokens;
    }

    /**
     * The default chunker for a model: window = {@code maxTokens} minus the special tokens minus the tokens of the
     * passage prefix (254 for all-MiniLM-L6-v2), overlap {@value #DEFAULT_OVERLAP_TOKENS} (at most half the window).
     */
    public static TokenChunker forModel(ModelTokenizer tokenizer, ModelDescriptor d) {
        return new TokenChunker(tokenizer, defaultWindow(tokenizer, d),
                Math.min(DEFAULT_OVERLAP_TOKENS, defaultWindow(tokenizer, d) / 2));
    }

    static int defaultWindow(ModelTokenizer tokenizer, ModelDescriptor d) {
        int prefix = d.passagePrefix().isEmpty() ? 0 : tokenizer.countTokens(d.passagePrefix());
        return Math.max(1, d.maxTokens() - tokenizer.specialTokenCount() - prefix);
    }

    public int windowTokens() {
        return windowTokens;
    }

    public int overlapTokens() {
        return overlapTokens;
    }

    public int leadTokens() {
        return leadTokens;
    }

    /** This chunker with another lead length. */
    public TokenChunker withLeadTokens(int lead) {
        return new TokenChunker(tokenizer, windowTokens, overlapTokens, lead);
    }

    /** Tokens of {@code text} under the model's tokenizer, special tokens excluded, never truncated. */
    public int countTokens(String text) {
        return tokenizer.countTokens(text);
    }

    /**
     * Chunks {@code body} so that every chunk starts with {@code header} (a record's type and patient, say) and still
     * fits the window: without the header, a note's later chunks could not be found by the patient's name. A header
     * longer than half the window is chunked as part of the body instead.
     *
     * <p>A body that needs more than one window also gives up its opening (its first lines or sentences, up to the
     * lead length, cut where a sentence or line ends) to the header, so every chunk carries it: a passage's later
     * chunks then still say what the passage is about (the question a FAQ answer answers, a note's type and
     * complaint), which both search sides need to rank them against the right rows. The lead is moved, not copied:
     * joined, the chunks hold the text once.
     */
    public List<String> chunkUnderHeader(String header, String body) {
        if (header == null || header.isBlank()) {
            return chunk(body);
        }
        if (body == null || body.isBlank()) {
            return chunk(header);
        }
        String rest = body.strip();
        int headerAtMost = tokenizer.tokenUpperBound(header);
        int restAtMost = tokenizer.tokenUpperBound(rest);
        // most rows are short: when even the bounds fit, the exact counts below take this same one-window branch
        if (headerAtMost >= 0 && restAtMost >= 0 && headerAtMost + 1 <= windowTokens / 2 && headerAtMost + 1 + restAtMost <= windowTokens) {
            return List.of(header + "\n" + rest);
        }
        return chunkUnderHeaderCounted(header, body);
    }

    /**
     * {@link #chunkUnderHeader} with every count made by the tokenizer (no bound used). The body is tokenized once:
     * its count, its lead and its windows are all read from that one tokenization (cut at a sentence or line end, the
     * body after the lead tokenizes into the same tokens), and only each window's text is counted again.
     */
    List<String> chunkUnderHeaderCounted(String header, String body) {
        int headerTokens = countTokens(header) + 1;
        if (headerTokens > windowTokens / 2) {
            return chunk(header + "\n" + body);
        }
        int bodyWindow = windowTokens - headerTokens;
        String rest = body.strip();
        ModelTokenizer.Tokens t = tokenizer.tokenize(rest);
        // most rows fit one window: one chunk, nothing cut
        if (t.size() <= bodyWindow) {
            return List.of(header + "\n" + rest);
        }
        int first = 0;
        int from = 0;
        if (leadTokens > 0) {
            int leadTokenEnd = leadTokenEnd(rest, t, Math.min(leadTokens, windowTokens / 4));
            if (leadTokenEnd > 0) {
                int leadEnd = t.ends()[leadTokenEnd - 1];
                String lead = rest.substring(0, leadEnd).strip();
                header = header + "\n" + lead;
                bodyWindow -= countTokens(lead) + 1;
                first = leadTokenEnd;
                from = leadEnd;
            }
        }
        TokenChunker bodyChunker = new TokenChunker(tokenizer, bodyWindow, Math.min(overlapTokens, bodyWindow / 2));
        List<String> out = new ArrayList<>();
        for (Chunk piece : bodyChunker.chunks(rest, from, rest.length(), t, first)) {
            out.add(header + "\n" + piece.text());
        }
        return out;
    }

    /**
     * Token end of the longest opening of the tokenized {@code text} within {@code maxTokens} tokens that ends a
     * sentence or a line; 0 when there is none.
     */
    private int leadTokenEnd(String text, ModelTokenizer.Tokens t, int maxTokens) {
        for (int e = Math.min(maxTokens, t.size() - 1); e > 0; e--) {
            if (boundaryRank(text, t, e) == SENTENCE_OR_LINE) {
                return e;
            }
        }
        return 0;
    }

    /** The chunk texts of {@link #chunks(String)}. */
    public List<String> chunk(String text) {
        List<Chunk> chunks = chunks(text);
        List<String> out = new ArrayList<>(chunks.size());
        for (Chunk c : chunks) {
            out.add(c.text());
        }
        return out;
    }

    /**
     * Chunks of {@code text} with their offsets. Blank text gives no chunk; text that fits one window gives one
     * chunk, the text without leading and trailing whitespace.
     */
    public List<Chunk> chunks(String text) {
        Objects.requireNonNull(text, "text");
        return chunks(text, 0, text.length(), null, 0);
    }

    /**
     * Chunks of {@code text.substring(from, to)}, offsets in {@code text}. {@code t}, when given, is the tokenization
     * of {@code text} whose tokens from {@code first} on are the substring's (a cut at whitespace); null (only with
     * the whole text, {@code from} 0 and {@code to} its length) tokenizes it here.
     */
    private List<Chunk> chunks(String text, int from, int to, ModelTokenizer.Tokens t, int first) {
        int lo = from, hi = to;
        while (lo < hi && Character.isWhitespace(text.charAt(lo))) {
            lo++;
        }
        while (hi > lo && Character.isWhitespace(text.charAt(hi - 1))) {
            hi--;
        }
        if (lo == hi) {
            return List.of();
        }
        if (t == null) {
            t = tokenizer.tokenize(text);
            first = 0;
        }
        int n = t.size();
        if (n - first <= windowTokens) {
            return List.of(new Chunk(text.substring(lo, hi), lo, hi, n - first));
        }
        List<Chunk> out = new ArrayList<>();
        int start = first;
        while (true) {
            int hardEnd = Math.min(start + windowTokens, n);
            int end = hardEnd == n ? n : preferredEnd(text, t, start, hardEnd);
            Chunk c = build(text, t, start, end);
            while (c.tokenCount() > windowTokens && end > start + 1) {
                end--;
                c = build(text, t, start, end);
            }
            out.add(c);
            if (end >= n) {
                return out;
            }
            start = nextStart(text, t, start, end);
        }
    }

    private Chunk build(String text, ModelTokenizer.Tokens t, int from, int to) {
        int s = t.starts()[from];
        int e = t.ends()[to - 1];
        String piece = text.substring(s, e);
        return new Chunk(piece, s, e, tokenizer.countTokens(piece));
    }

    /** End (exclusive token index) in the last quarter of the window, at the best boundary found there. */
    private int preferredEnd(String text, ModelTokenizer.Tokens t, int start, int hardEnd) {
        int lowest = Math.max(start + 1, start + windowTokens - windowTokens / 4);
        int best = hardEnd, bestRank = 0;
        for (int e = hardEnd; e >= lowest && bestRank < SENTENCE_OR_LINE; e--) {
            int rank = boundaryRank(text, t, e);
            if (rank > bestRank) {
                best = e;
                bestRank = rank;
            }
        }
        return best;
    }

    /** Where the next window starts: {@code overlap} tokens back from {@code end}, moved back onto a word start. */
    private int nextStart(String text, ModelTokenizer.Tokens t, int start, int end) {
        int next = Math.max(start + 1, end - overlapTokens);
        int limit = Math.max(start + 1, next - MAX_START_BACKTRACK);
        int wordStart = -1;
        for (int j = next; j >= limit; j--) {
            int rank = boundaryRank(text, t, j);
            if (rank >= WHITESPACE) {
                return j;
            }
            if (rank == WORD_BOUNDARY && wordStart < 0) {
                wordStart = j;
            }
        }
        return wordStart >= 0 ? wordStart : next;
    }

    /** How good a cut between token {@code e - 1} and token {@code e} is (0: inside a word). */
    private static int boundaryRank(String text, ModelTokenizer.Tokens t, int e) {
        if (e <= 0 || e >= t.size()) {
            return SENTENCE_OR_LINE;
        }
        int gapStart = t.ends()[e - 1];
        int gapEnd = t.starts()[e];
        boolean gap = gapEnd > gapStart;
        if (gap) {
            for (int i = gapStart; i < gapEnd; i++) {
                char c = text.charAt(i);
                if (c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029') {
                    return SENTENCE_OR_LINE;
                }
            }
            if (endsSentence(text, gapStart) && !Character.isLowerCase(text.charAt(gapEnd))) {
                return SENTENCE_OR_LINE;
            }
            return WHITESPACE;
        }
        long w0 = t.wordIds()[e - 1], w1 = t.wordIds()[e];
        return w0 != w1 || w0 < 0 ? WORD_BOUNDARY : 0;
    }

    /** True when the text before {@code to} ends with '.', '!' or '?', possibly followed by closing quotes/brackets. */
    private static boolean endsSentence(String text, int to) {
        int i = to - 1;
        for (int skipped = 0; i > 0 && skipped < 3 && "\"')]}\u201d\u2019".indexOf(text.charAt(i)) >= 0; skipped++) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        char c = text.charAt(i);
        return c == '.' || c == '!' || c == '?';
    }
}
