package org.chartstream.query.embed;

/** The query side's view of the embedding model (the same model that embedded the index). */
public interface QueryEmbedder {
    String modelId();

    float[] embedQuery(String question);
}
