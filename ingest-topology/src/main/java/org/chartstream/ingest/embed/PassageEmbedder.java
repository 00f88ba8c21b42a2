package org.chartstream.ingest.embed;

import java.util.List;
import org.chartstream.core.model.Embedder;

/** The ingest side's view of the embedding model: one call per batch of passages. */
public interface PassageEmbedder {
    String modelId();

    int dimension();

    float[][] embedPassages(List<String> texts);

    static PassageEmbedder of(Embedder model) {
        return new PassageEmbedder() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public int dimension() {
                return model.dimension();
            }

            @Override
            public float[][] embedPassages(List<String> texts) {
                return model.embedPassages(texts);
            }
        };
    }
}
