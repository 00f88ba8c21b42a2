package org.chartstream.ingest.publish;

import java.util.List;
import org.chartstream.ingest.embed.PassageEmbedder;

/** A 3-dimensional model for tests of index events before their embedding: asked to embed, it fails the test. */
final class NoEmbedding implements PassageEmbedder {
    private final String why;

    /** @param why what the test builds, for the failure message, e.g. "routing embeds nothing" */
    NoEmbedding(String why) {
        this.why = why;
    }

    @Override
    public String modelId() {
        return "test-model";
    }

    @Override
    public int dimension() {
        return 3;
    }

    @Override
    public float[][] embedPassages(List<String> texts) {
        throw new AssertionError(why);
    }
}
