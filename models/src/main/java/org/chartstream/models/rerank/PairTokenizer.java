package org.chartstream.models.rerank;

import ai.djl.huggingface.tokenizers.Encoding;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import org.chartstream.models.EncoderSession;
import org.chartstream.models.NativeTokenizer;

/**
 * A cross-encoder's own HuggingFace tokenizer encoding (query, passage) pairs with the model's pair template: for
 * BERT {@code [CLS] query [SEP] passage [SEP]} with token types 0 for the query part and 1 for the passage part; for
 * XLM-RoBERTa {@code <s> query </s></s> passage </s>}.
 *
 * <p>Pairs longer than {@code maxTokens} are truncated by the native tokenizer with HuggingFace's
 * {@code longest_first} strategy (tokens come off the longer of the two texts), as sentence-transformers'
 * CrossEncoder does. Padding is left to the caller, per batch. The tokenizer file's own padding and truncation
 * settings are overridden.
 *
 * <p>Thread-safe; {@link #close()} waits for running calls.
 */
public final class PairTokenizer implements AutoCloseable {

    /** One encoded pair, special tokens included, already truncated; every position is a real token. */
    public record PairEncoding(long[] ids, long[] typeIds) implements EncoderSession.Input {
    }

    private final NativeTokenizer tokenizer;
    private final int maxTokens;

    private PairTokenizer(NativeTokenizer tokenizer, int maxTokens) {
        this.tokenizer = tokenizer;
        this.maxTokens = maxTokens;
    }

    /** Reads a {@code tokenizer.json}; the caller closes the stream and the returned tokenizer. */
    public static PairTokenizer load(InputStream tokenizerJson, int maxTokens) {
        Objects.requireNonNull(tokenizerJson, "tokenizerJson");
        try {
            NativeTokenizer tokenizer = NativeTokenizer.load(tokenizerJson, Map.of(
                    "padding", "false", "truncation", "true", "maxLength", Integer.toString(maxTokens),
                    "addSpecialTokens", "true"), "cross-encoder tokenizer");
            return new PairTokenizer(tokenizer, maxTokens);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load a cross-encoder tokenizer", e);
        }
    }

    public int maxTokens() {
        return maxTokens;
    }

    /** Id written into padding positions; they are masked out, so its value does not change a score. */
    public long padId() {
        return tokenizer.padId();
    }

    public PairEncoding encode(String query, String passage) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(passage, "passage");
        Encoding e = tokenizer.use(hf -> hf.encode(query, passage));
        return new PairEncoding(e.getIds(), e.getTypeIds());
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
