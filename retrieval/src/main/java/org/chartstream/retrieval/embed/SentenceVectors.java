package org.chartstream.retrieval.embed;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.SearchHit;

/**
 * The query-side multi-vector rule for a question of several sentences ({@link QuestionSentences}): a consumer's
 * message embedded as one text dilutes each of its questions, so each sentence is embedded too (in the same model
 * call as the whole question). A question of one sentence is searched as before, by construction.
 *
 * <ul>
 *   <li>{@link #OFF}: the whole question's embedding only.</li>
 *   <li>{@link #MEAN}: one vector search with unit(mean of the unit vectors of the whole question and of each
 *       sentence); a chunk's score is then its mean cosine over those vectors (up to a constant factor).</li>
 *   <li>{@link #MAX}: one vector search per vector (whole question and each sentence); a chunk's score is its best
 *       cosine over them ({@link #maxPerChunk}).</li>
 *   <li>{@link #BLEND}: the same searches; a chunk's score is ½ · its cosine with the whole question + ½ · its best
 *       cosine with a sentence, over every chunk any of the searches found ({@link #blend}): a chunk must still match
 *       the whole message, so a sentence of small talk cannot carry a chunk alone. The even split is not tuned.</li>
 *   <li>{@link #QUESTIONS}: as {@link #MAX}, but only the sentences that ask ({@link QuestionSentences#asks}) get a
 *       vector of their own: a message's questions state what is wanted, its other sentences (greetings, small talk,
 *       the story) are context the whole question's embedding keeps.</li>
 *   <li>{@link #STANDOUT}: as {@link #MAX}, but a sentence's list counts only when its first row stands out from its
 *       next rows at least as far as in the whole question's list ({@link #standingOut}, the adaptive fusion's
 *       stand-out): a sentence of small talk matches many rows alike and so carries no evidence of its own. No
 *       constant of its own.</li>
 *   <li>{@link #CLAUSES}: as {@link #STANDOUT}, over the question's clauses ({@link QuestionSentences#clauses}): a
 *       sentence is also split where "and" or "or" opens another question ("What is hepatitis and how is it
 *       transmitted?"), so that a question of one sentence that asks two things is searched by each. No constant of
 *       its own.</li>
 * </ul>
 *
 * <p>{@link #CLAUSES} is the default ({@code query.sentence-vectors}): chosen against {@link #STANDOUT} (session 11's
 * default) on liveqa-med-clean, eval/aci-patient-words, eval/clinical and eval/aci-visit-summary
 * (docs/history/EVALUATION-sessions-1-21.md, "Session 12"); {@link #STANDOUT} among the other rules on liveqa-med-clean
 * and eval/aci-patient-words, the two sets here with questions of several sentences (session 11). Neither adds a
 * constant; {@link QuestionSentences}' two bounds are not tuned.
 */
public enum SentenceVectors {
    OFF, MEAN, MAX, BLEND, QUESTIONS, STANDOUT, CLAUSES;

    /** Whether the rule searches once per sentence. */
    public boolean searchesPerSentence() {
        return this != OFF && this != MEAN;
    }

    /**
     * The whole question's list (first) and those of the sentences' lists whose first row stands out at least as far
     * as in it ({@link org.chartstream.retrieval.fusion.AdaptiveFusion#standOut(double[])} over each list's best hit
     * per row).
     */
    public static List<List<SearchHit>> standingOut(List<List<SearchHit>> lists) {
        double whole = standOut(lists.get(0));
        List<List<SearchHit>> out = new ArrayList<>();
        out.add(lists.get(0));
        for (List<SearchHit> list : lists.subList(1, lists.size())) {
            if (standOut(list) >= whole) {
                out.add(list);
            }
        }
        return List.copyOf(out);
    }

    private static double standOut(List<SearchHit> list) {
        java.util.Set<String> rows = new java.util.HashSet<>();
        return org.chartstream.retrieval.fusion.AdaptiveFusion.standOut(list.stream()
                .filter(h -> rows.add(h.chunk().row().id())).mapToDouble(SearchHit::score).toArray());
    }

    public boolean on() {
        return this != OFF;
    }

    /** The texts to embed besides the question itself: its sentences, or none when it has one. */
    public List<String> sentences(String question) {
        if (this == OFF) {
            return List.of();
        }
        List<String> sentences = this == CLAUSES ? QuestionSentences.clauses(question) : QuestionSentences.of(question);
        if (sentences.size() < 2) {
            return List.of();
        }
        return this == QUESTIONS ? sentences.stream().filter(QuestionSentences::asks).toList() : sentences;
    }

    /** unit(Σ unit(vᵢ)); the first vector when the sum is the zero vector. */
    public static float[] meanOfUnits(List<float[]> vectors) {
        double[] sum = new double[vectors.get(0).length];
        for (float[] v : vectors) {
            double norm = 0;
            for (float x : v) {
                norm += (double) x * x;
            }
            double length = norm > 0 ? Math.sqrt(norm) : 1;
            for (int i = 0; i < sum.length; i++) {
                sum[i] += v[i] / length;
            }
        }
        double norm = 0;
        for (double x : sum) {
            norm += x * x;
        }
        if (!(norm > 0)) {
            return vectors.get(0).clone();
        }
        float[] out = new float[sum.length];
        double length = Math.sqrt(norm);
        for (int i = 0; i < sum.length; i++) {
            out[i] = (float) (sum[i] / length);
        }
        return out;
    }

    /**
     * The lists of the whole question's search and of each sentence's merged into one: every chunk found once, scored
     * ½ · cos(whole, chunk) + ½ · max over the sentences of cos(sentence, chunk) from the chunk's stored vector (a
     * chunk without one keeps its best listed score), best first, ties by chunk id; at most {@code k}, ranked 1 … k.
     */
    public static List<SearchHit> blend(List<List<SearchHit>> lists, float[] whole, List<float[]> sentences, int k) {
        Map<String, SearchHit> found = new LinkedHashMap<>();
        for (SearchHit hit : maxPerChunk(lists, Integer.MAX_VALUE)) {
            float[] v = hit.chunk().vector();
            double score = hit.score();
            if (v != null && v.length == whole.length) {
                double best = Double.NEGATIVE_INFINITY;
                for (float[] s : sentences) {
                    best = Math.max(best, cosine(s, v));
                }
                score = 0.5 * cosine(whole, v) + 0.5 * best;
            }
            found.put(hit.chunk().chunkId(), new SearchHit(hit.chunk(), score, hit.rank()));
        }
        return maxPerChunk(List.of(List.copyOf(found.values())), k);
    }

    /** The cosine of two vectors of one model (0 when either is all zeros). */
    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
    }

    /**
     * Several vector lists merged into one: each chunk once, with its best score over the lists (the hit of the
     * earliest list holding that score), best first, ties by chunk id; at most {@code k} hits, ranked 1 … k.
     */
    public static List<SearchHit> maxPerChunk(List<List<SearchHit>> lists, int k) {
        Map<String, SearchHit> best = new LinkedHashMap<>();
        for (List<SearchHit> list : lists) {
            for (SearchHit hit : list) {
                best.merge(hit.chunk().chunkId(), hit, (a, b) -> b.score() > a.score() ? b : a);
            }
        }
        List<SearchHit> sorted = new ArrayList<>(best.values());
        sorted.sort(Comparator.comparingDouble(SearchHit::score).reversed()
                .thenComparing(h -> h.chunk().chunkId()));
        List<SearchHit> out = new ArrayList<>(Math.min(k, sorted.size()));
        for (int i = 0; i < Math.min(k, sorted.size()); i++) {
            SearchHit h = sorted.get(i);
            out.add(new SearchHit(h.chunk(), h.score(), i + 1));
        }
        return List.copyOf(out);
    }
}
