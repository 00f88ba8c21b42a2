package org.chartstream.models.rerank;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.model.Embedder;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.Vectors;

/**
 * The fallback {@link Reranker} for a site without a cross-encoder: the cosine similarity between the query's and
 * each passage's embedding from the index's own bi-encoder. It adds no model, only a second, un-truncated look at the
 * candidates, and its name says that no cross-encoder is configured so the audit shows what actually scored.
 *
 * <p>Does not own the embedder: {@link #close()} stops this reranker and leaves the embedder open.
 */
public final class BiEncoderReranker implements Reranker {
    private final Embedder embedder;
    private volatile boolean closed;

    public BiEncoderReranker(Embedder embedder) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
    }

    @Override
    public String name() {
        return "bi-encoder cosine " + embedder.modelId() + " (no cross-encoder configured)";
    }

    @Override
    public String scorer() {
        return BI_ENCODER_COSINE;
    }

    @Override
    public double[] score(String query, List<String> passages) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(passages, "passages");
        if (closed) {
            throw new IllegalStateException("reranker over '" + embedder.modelId() + "' is closed");
        }
        double[] scores = new double[passages.size()];
        if (passages.isEmpty()) {
            return scores;
        }
        float[] q = embedder.embedQuery(query);
        float[][] p = embedder.embedPassages(passages);
        for (int i = 0; i < p.length; i++) {
            scores[i] = Vectors.dot(q, p[i]);
        }
        return scores;
    }

    @Override
    public void close() {
        closed = true;
    }
}
