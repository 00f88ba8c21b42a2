package org.chartstream.retrieval.embed;

import java.util.List;
import org.chartstream.core.model.Embedder;

/** The query side's view of the embedding model (the same model that embedded the index). */
public interface QueryEmbedder {
    String modelId();

    /** One model call for all the texts. */
    float[][] embedQueries(List<String> questions);

    default float[] embedQuery(String question) {
        return embedQueries(List.of(question))[0];
    }

    static QueryEmbedder of(Embedder model) {
        return new QueryEmbedder() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public float[][] embedQueries(List<String> questions) {
                return model.embedQueries(questions);
            }
        };
    }
}
