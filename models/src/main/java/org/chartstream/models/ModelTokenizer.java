package org.chartstream.models;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * A model's own HuggingFace tokenizer ({@code tokenizer.json} through DJL's native binding), loaded once and shared
 * by the {@link OnnxEmbedder} and any {@link TokenChunker} built from it.
 *
 * <p>The native tokenizer is created <em>without</em> truncation or padding, so it can count and split long texts;
 * the embedder truncates to {@code maxTokens} (keeping the closing special token, exactly like HuggingFace's
 * right-side truncation) and pads each sub-batch itself.
 *
 * <p>Thread-safe: encoding runs concurrently (the Rust tokenizer is immutable once built); {@link #close()} waits for
 * running calls and makes later calls fail.
 */
public final class ModelTokenizer implements AutoCloseable {

    /** One text tokenised without special tokens; offsets are Java {@code String} (UTF-16) indices. */
    record Tokens(long[] ids, int[] starts, int[] ends, long[] wordIds) {
        int size() {
            return ids.length;
        }
    }

    /** Model input for one text: token ids and token type ids, special tokens included, already truncated. */
    record ModelInput(long[] ids, long[] typeIds) implements EncoderSession.Input {
    }

    private final NativeTokenizer tokenizer;
    private final String modelId;
    private final int specialTokenCount;
    private final boolean printableAsciiBound;

    private ModelTokenizer(NativeTokenizer tokenizer, String modelId, boolean printableAsciiBound) {
        this.tokenizer = tokenizer;
        this.modelId = modelId;
        this.printableAsciiBound = printableAsciiBound;
        Encoding probe = tokenizer.use(hf -> hf.encode("hello", true, false));
        this.specialTokenCount = (int) Arrays.stream(probe.getSpecialTokenMask()).filter(m -> m != 0).count();
    }

    /** Loads the tokenizer named by {@code d.tokenizerResource()}. The caller closes it. */
    public static ModelTokenizer load(ModelDescriptor d) {
        Objects.requireNonNull(d, "descriptor");
        try (InputStream in = ModelResources.open(d.tokenizerResource(), d)) {
            byte[] json = in.readAllBytes();
            NativeTokenizer tokenizer = NativeTokenizer.load(new ByteArrayInputStream(json),
                    Map.of("padding", "false", "truncation", "false", "addSpecialTokens", "true"),
                    "tokenizer of model '" + d.id() + "'");
            return new ModelTokenizer(tokenizer, d.id(), boundedByPrintableAscii(json));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load tokenizer " + d.tokenizerResource() + " of model '"
                    + d.id() + "'", e);
        }
    }

    /** Id of the model this tokenizer belongs to. */
    public String modelId() {
        return modelId;
    }

    /** Number of special tokens the model adds around one text ([CLS] and [SEP] for BERT: 2). */
    public int specialTokenCount() {
        return specialTokenCount;
    }

    /** Number of tokens the model's tokenizer makes of {@code text}, special tokens excluded. Never truncates. */
    public int countTokens(String text) {
        Objects.requireNonNull(text, "text");
        return tokenizer.use(hf -> hf.encode(text, false, false).getIds().length);
    }

    /**
     * At least {@link #countTokens}{@code (text)}, found without the tokenizer, or -1 when no such bound is known: for a
     * BERT WordPiece tokenizer and text of printable ASCII, whitespace and control characters only, the count of
     * printable characters. Each such token covers at least one of them: the pre-tokenizer splits at whitespace and
     * makes every punctuation character a token of its own, WordPiece cuts a word into pieces of at least one
     * character (or makes it one unknown token), and the normaliser only lowercases ASCII and drops control
     * characters. Outside ASCII a character can normalise into several (NFD), so no bound is given there.
     */
    public int tokenUpperBound(String text) {
        if (!printableAsciiBound) {
            return -1;
        }
        int printable = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7f) {
                return -1;
            }
            if (c > ' ' && c < 0x7f) {
                printable++;
            }
        }
        return printable;
    }

    /** Whether {@code tokenizer.json} describes a BERT WordPiece tokenizer, for which {@link #tokenUpperBound} holds. */
    static boolean boundedByPrintableAscii(byte[] tokenizerJson) throws IOException {
        Map<String, String> types = topLevelTypes(tokenizerJson);
        return "WordPiece".equals(types.get("model")) && "BertNormalizer".equals(types.get("normalizer"))
                && "BertPreTokenizer".equals(types.get("pre_tokenizer"));
    }

    /**
     * The {@code type} of each top-level object of the JSON, read as a stream: the vocabulary is skipped, not built
     * into a tree.
     */
    private static Map<String, String> topLevelTypes(byte[] json) throws IOException {
        Map<String, String> types = new java.util.HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return types;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String section = p.currentName();
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if ("type".equals(field) && value == JsonToken.VALUE_STRING) {
                        types.put(section, p.getText());
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        return types;
    }

    /** Ids, UTF-16 character offsets and word ids of every token of {@code text}, special tokens excluded. */
    Tokens tokenize(String text) {
        Objects.requireNonNull(text, "text");
        Encoding e = tokenizer.use(hf -> hf.encode(text, false, false));
        long[] ids = e.getIds();
        CharSpan[] spans = e.getCharTokenSpans();
        long[] words = e.getWordIds();
        int[] starts = new int[ids.length];
        int[] ends = new int[ids.length];
        int[] cpToChar = codePointToCharIndex(text);
        int prevEnd = 0;
        for (int i = 0; i < ids.length; i++) {
            CharSpan s = spans == null || i >= spans.length ? null : spans[i];
            int start = s == null ? prevEnd : toChar(cpToChar, s.getStart(), text.length());
            int end = s == null ? prevEnd : toChar(cpToChar, s.getEnd(), text.length());
            starts[i] = start;
            ends[i] = Math.max(start, end);
            prevEnd = ends[i];
        }
        if (words == null || words.length != ids.length) {
            words = new long[ids.length];
            Arrays.fill(words, -1);
        }
        return new Tokens(ids, starts, ends, words);
    }

    /**
     * Model input for {@code text}: special tokens added, then truncated to {@code maxTokens} by dropping content
     * tokens from the right and keeping the trailing special token(s) (HuggingFace "longest_first" on one sequence).
     */
    ModelInput encodeForModel(String text, int maxTokens) {
        Objects.requireNonNull(text, "text");
        Encoding e = tokenizer.use(hf -> hf.encode(text, true, false));
        long[] ids = e.getIds();
        long[] types = e.getTypeIds();
        if (ids.length <= maxTokens) {
            return new ModelInput(ids, types);
        }
        long[] special = e.getSpecialTokenMask();
        int trailing = 0;
        while (trailing < special.length && special[special.length - 1 - trailing] != 0) {
            trailing++;
        }
        trailing = Math.min(trailing, maxTokens - 1);
        int head = maxTokens - trailing;
        long[] tIds = new long[maxTokens];
        long[] tTypes = new long[maxTokens];
        System.arraycopy(ids, 0, tIds, 0, head);
        System.arraycopy(ids, ids.length - trailing, tIds, head, trailing);
        System.arraycopy(types, 0, tTypes, 0, head);
        System.arraycopy(types, types.length - trailing, tTypes, head, trailing);
        return new ModelInput(tIds, tTypes);
    }

    /** Id used for padding positions (masked out, so it does not change the result; kept for hygiene). */
    long padId() {
        return tokenizer.padId();
    }

    /** Frees the native tokenizer; waits for running calls. Idempotent. */
    @Override
    public void close() {
        tokenizer.close();
    }

    /** Maps code point offsets (what the native tokenizer reports) to UTF-16 indices; null when they coincide. */
    private static int[] codePointToCharIndex(String text) {
        int cps = text.codePointCount(0, text.length());
        if (cps == text.length()) {
            return null;
        }
        int[] map = new int[cps + 1];
        int ci = 0;
        for (int cp = 0; cp < cps; cp++) {
            map[cp] = ci;
            ci += Character.charCount(text.codePointAt(ci));
        }
        map[cps] = text.length();
        return map;
    }

    private static int toChar(int[] map, int cp, int length) {
        if (map == null) {
            return Math.max(0, Math.min(cp, length));
        }
        return map[Math.max(0, Math.min(cp, map.length - 1))];
    }
}
