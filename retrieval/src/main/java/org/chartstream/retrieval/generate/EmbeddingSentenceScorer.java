package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.retrieval.embed.QueryEmbedder;

/**
 * Scores sentences by the cosine of their embedding with the question's, from the index's embedding model, the
 * question and all sentences in one model call. Both sides go through the query embedding: a sentence and a question
 * are texts of the same kind and length (for a model with query/passage prefixes this is its symmetric use).
 */
public final class EmbeddingSentenceScorer implements SentenceScorer {
    private final QueryEmbedder embedder;

    public EmbeddingSentenceScorer(QueryEmbedder embedder) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
    }

    @Override
    public double[] relevance(String question, List<String> sentences) {
        if (sentences.isEmpty()) {
            return new double[0];
        }
        List<String> texts = new ArrayList<>(sentences.size() + 1);
        texts.add(question);
        texts.addAll(sentences);
        float[][] vectors = embedder.embedQueries(texts);
        double[] scores = new double[sentences.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = dot(vectors[0], vectors[i + 1]);
        }
        return scores;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
