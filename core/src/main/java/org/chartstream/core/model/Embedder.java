package org.chartstream.core.model;

import java.util.List;

/**
 * The embedding port. Implementations turn texts into L2-normalised vectors of {@link #dimension()} floats, so the
 * dot product of two vectors is their cosine similarity.
 *
 * <p>Passages (what is indexed) and queries (what is searched with) are embedded through separate methods because
 * some models expect different prefixes for each (e5: {@code "passage: "} / {@code "query: "}). Texts longer than
 * {@link #maxTokens()} (special tokens included) are truncated by the model; chunk them first (see
 * {@code TokenChunker} in the models module).
 *
 * <p>{@link #modelId()} and {@link #dimension()} are part of the index contract: vectors from different models must
 * never be mixed in one generation.
 *
 * <p>Implementations are thread-safe.
 */
public interface Embedder extends AutoCloseable {

    /** Stable model identifier, e.g. {@code "all-minilm-l6-v2"}. */
    String modelId();

    /** Length of every returned vector. */
    int dimension();

    /** Most tokens the model sees per text, special tokens included; longer texts are truncated. */
    int maxTokens();

    /** One L2-normalised vector per text, in input order. */
    float[][] embedPassages(List<String> texts);

    /** One L2-normalised vector per query text, in input order. */
    float[][] embedQueries(List<String> texts);

    /** One L2-normalised vector for a single query. */
    default float[] embedQuery(String text) {
        return embedQueries(List.of(text))[0];
    }

    /** Releases native resources. Further calls fail with {@link IllegalStateException}. Idempotent. */
    @Override
    void close();
}
