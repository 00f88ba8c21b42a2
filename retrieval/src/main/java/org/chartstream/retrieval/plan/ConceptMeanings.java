package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.chartstream.retrieval.embed.QueryEmbedder;

/**
 * Links a phrase no concept holds the words of to the concepts nearest in meaning ("acute kidney injury" → "Acute
 * kidney failure, unspecified"), by the embedding model's cosine, above a threshold measured for the model. The
 * vocabulary's vectors are computed once per value and kept.
 *
 * <p>Thresholds (measured in session 23 with all-minilm-l6-v2 int8 over 27 diagnosis titles): paraphrases of a
 * concept scored 0.86 ("acute kidney injury"), 0.91 ("acute renal failure"), 0.74 ("heart failure"); the nearest
 * wrong concept of a question's other words scored up to 0.59 ("blood pressure" → "Hypertensive disorder", "low blood
 * pressure" → 0.49 the same), so 0.70 keeps the first and none of the second; "high blood pressure" (0.59) is not
 * linked. A model without a measured threshold links by words only. A set built from concepts linked so is labelled
 * partial: similarity is not proof.
 */
public final class ConceptMeanings {
    /** Cosine at or above which a concept is linked by meaning, per embedding model id (the int8 variant alike). */
    public static final Map<String, Double> THRESHOLDS = Map.of("all-minilm-l6-v2", 0.70, "all-minilm-l6-v2-q", 0.70);
    private static final int BATCH = 64;

    private final QueryEmbedder embedder;
    private final double threshold;
    private final Map<String, float[]> vectors = new ConcurrentHashMap<>();

    private ConceptMeanings(QueryEmbedder embedder, double threshold) {
        this.embedder = embedder;
        this.threshold = threshold;
    }

    /** Meanings by {@code embedder}, or null when its model has no measured threshold (then words only). */
    public static ConceptMeanings of(QueryEmbedder embedder) {
        Double threshold = embedder == null ? null : THRESHOLDS.get(embedder.modelId());
        return threshold == null ? null : new ConceptMeanings(embedder, threshold);
    }

    /** For a test: the given threshold over any embedder. */
    static ConceptMeanings withThreshold(QueryEmbedder embedder, double threshold) {
        return new ConceptMeanings(embedder, threshold);
    }

    /** The values of {@code vocabulary} whose meaning is near {@code phrase}'s, most similar first. */
    public List<String> near(String phrase, List<String> vocabulary) {
        List<String> missing = vocabulary.stream().filter(v -> !vectors.containsKey(v)).toList();
        for (int i = 0; i < missing.size(); i += BATCH) {
            List<String> batch = missing.subList(i, Math.min(missing.size(), i + BATCH));
            float[][] embedded = embedder.embedQueries(batch);
            for (int j = 0; j < batch.size(); j++) {
                vectors.put(batch.get(j), embedded[j]);
            }
        }
        float[] query = embedder.embedQueries(List.of(phrase))[0];
        List<Map.Entry<String, Double>> near = new ArrayList<>();
        for (String value : vocabulary) {
            double cos = cosine(query, vectors.get(value));
            if (cos >= threshold) {
                near.add(Map.entry(value, cos));
            }
        }
        near.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        return near.stream().map(Map.Entry::getKey).toList();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
