package org.chartstream.ingest.embed;

import java.util.List;
import java.util.function.Function;
import org.chartstream.core.model.Embedder;

/** The ingest side's view of the embedding model: one call per batch of passages. */
public interface PassageEmbedder {
    String modelId();

    int dimension();

    float[][] embedPassages(List<String> texts);

    static PassageEmbedder of(Embedder model) {
        return of(model.modelId(), model.dimension(), model::embedPassages);
    }

    /** A model given by its id, its vectors' dimension and its embedding call. */
    static PassageEmbedder of(String modelId, int dimension, Function<List<String>, float[][]> embedPassages) {
        return new PassageEmbedder() {
            @Override
            public String modelId() {
                return modelId;
            }

            @Override
            public int dimension() {
                return dimension;
            }

            @Override
            public float[][] embedPassages(List<String> texts) {
                return embedPassages.apply(texts);
            }
        };
    }
}
