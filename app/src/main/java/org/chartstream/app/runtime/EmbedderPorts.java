package org.chartstream.app.runtime;

import java.util.List;
import org.chartstream.ingest.embed.PassageEmbedder;
import org.chartstream.models.Embedder;
import org.chartstream.query.embed.QueryEmbedder;

/** Adapts the one loaded model to the ingest and query sides' narrow views of it. */
public final class EmbedderPorts {
    private EmbedderPorts() {
    }

    public static PassageEmbedder passages(Embedder model) {
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

    public static QueryEmbedder queries(Embedder model) {
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
