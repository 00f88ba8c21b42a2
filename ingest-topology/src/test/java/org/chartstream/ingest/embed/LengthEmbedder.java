package org.chartstream.ingest.embed;

import java.util.List;
import java.util.function.Consumer;

/**
 * A test double of the embedding model (the tests of the buffer and the embedding task need no real one): a text's
 * vector is its length and its place in the call, and every call's texts are handed to {@code calls} first.
 */
public final class LengthEmbedder implements PassageEmbedder {
    private final Consumer<List<String>> calls;

    public LengthEmbedder(Consumer<List<String>> calls) {
        this.calls = calls;
    }

    @Override
    public String modelId() {
        return "test-model";
    }

    @Override
    public int dimension() {
        return 2;
    }

    @Override
    public float[][] embedPassages(List<String> texts) {
        calls.accept(texts);
        float[][] vectors = new float[texts.size()][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = new float[] {texts.get(i).length(), i};
        }
        return vectors;
    }
}
