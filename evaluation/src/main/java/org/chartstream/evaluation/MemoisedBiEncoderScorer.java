package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.chartstream.core.model.Embedder;
import org.chartstream.core.model.Reranker;
import org.chartstream.models.Vectors;

/**
 * The bi-encoder cosine scorer with each passage embedded once per evaluation run. It gives the scores of
 * {@link org.chartstream.models.rerank.BiEncoderReranker} (same model, same texts, fp32: an embedding does not depend
 * on the rest of its batch), without re-embedding the same 30 candidate passages for every query and mode, which
 * would otherwise take most of an evaluation's time. Query latencies measured with it leave out that re-embedding.
 */
public final class MemoisedBiEncoderScorer implements Reranker {
    private final Embedder embedder;
    private final Map<String, float[]> passages = new ConcurrentHashMap<>();

    public MemoisedBiEncoderScorer(Embedder embedder) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
    }

    @Override
    public String name() {
        return "bi-encoder cosine " + embedder.modelId() + " (no cross-encoder configured; passage embeddings memoised for evaluation)";
    }

    @Override
    public String scorer() {
        return BI_ENCODER_COSINE;
    }

    @Override
    public double[] score(String query, List<String> texts) {
        double[] scores = new double[texts.size()];
        if (texts.isEmpty()) {
            return scores;
        }
        List<String> missing = new ArrayList<>();
        for (String t : texts) {
            if (!passages.containsKey(t) && !missing.contains(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            float[][] vectors = embedder.embedPassages(missing);
            for (int i = 0; i < vectors.length; i++) {
                passages.put(missing.get(i), vectors[i]);
            }
        }
        float[] q = embedder.embedQuery(query);
        for (int i = 0; i < texts.size(); i++) {
            scores[i] = Vectors.dot(q, passages.get(texts.get(i)));
        }
        return scores;
    }

    /** Passages embedded so far. */
    public int memoised() {
        return passages.size();
    }

    @Override
    public void close() {
        passages.clear();
    }
}
