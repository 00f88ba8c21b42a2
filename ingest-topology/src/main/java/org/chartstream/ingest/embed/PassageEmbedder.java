package org.chartstream.ingest.embed;

import java.util.List;

/** The ingest side's view of the embedding model: one call per batch of passages. */
public interface PassageEmbedder {
    String modelId();

    int dimension();

    float[][] embedPassages(List<String> texts);
}
