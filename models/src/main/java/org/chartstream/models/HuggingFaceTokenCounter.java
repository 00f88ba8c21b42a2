package org.chartstream.models;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.chartstream.core.model.TokenCounter;

/**
 * A {@link TokenCounter} over any HuggingFace {@code tokenizer.json} (for example the generation model's), through
 * DJL's native tokenizer, with the file's own padding and truncation switched off so long texts are counted whole.
 */
public final class HuggingFaceTokenCounter implements TokenCounter, AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;

    private HuggingFaceTokenCounter(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Reads a {@code tokenizer.json}; the caller closes the stream. */
    public static HuggingFaceTokenCounter load(InputStream tokenizerJson) {
        Objects.requireNonNull(tokenizerJson, "tokenizerJson");
        try {
            return new HuggingFaceTokenCounter(HuggingFaceTokenizer.newInstance(tokenizerJson,
                    Map.of("padding", "false", "truncation", "false", "addSpecialTokens", "false")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load a tokenizer for token counting", e);
        }
    }

    public static HuggingFaceTokenCounter load(Path tokenizerJson) {
        try (InputStream in = Files.newInputStream(tokenizerJson)) {
            return load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + tokenizerJson, e);
        }
    }

    @Override
    public int count(String text) {
        return tokenizer.encode(Objects.requireNonNull(text, "text"), false, false).getIds().length;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
