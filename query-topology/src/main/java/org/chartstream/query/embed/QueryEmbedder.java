package org.chartstream.query.embed;

import org.chartstream.models.Embedder;

/** The query side's view of the embedding model (the same model that embedded the index). */
public interface QueryEmbedder {
    String modelId();

    float[] embedQuery(String question);

    static QueryEmbedder of(Embedder model) {
        return new QueryEmbedder() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public float[] embedQuery(String question) {
                return model.embedQuery(question);
            }
        };
    }
}
