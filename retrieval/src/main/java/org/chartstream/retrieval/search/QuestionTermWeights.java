package org.chartstream.retrieval.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.embed.SentenceVectors;
import org.chartstream.retrieval.rewrite.ExactTerms;

/**
 * The lexical query with each word of the question weighted by how close the word alone lies to the whole question in
 * the embedding model's space ({@code query.term-weights}). BM25 weighs a word by its rarity in the index, and the
 * boilerplate of a consumer's question ("I would like to know", "please", "so little research being done") is rare in
 * clinical text, so it gets as much weight as the disease the question is about. The model tells them apart: the
 * disease's embedding lies near the question's, the boilerplate's does not.
 *
 * <p>A word's weight is (its cosine with the question / the largest such cosine of the question's words) ^ {@link
 * #POWER}, at least {@link #MIN_WEIGHT}; the exact terms that {@link ExactTerms} quotes keep weight 1. {@link #POWER}
 * 0.5 is the middle of the range 0.25–0.75 over which liveqa-med-clean, eval/aci-patient-words, eval/aci-visit-summary
 * and eval/clinical all gave about the same figures offline (docs/history/EVALUATION-sessions-1-21.md, "Session 21").
 *
 * <p>A question of more than {@link #MAX_WORDS} distinct words is searched as asked: its words' embeddings would cost
 * more than the search.
 */
public enum QuestionTermWeights {
    /** Each word weighted by the embedding model (the default). */
    EMBEDDING,
    /** Every word of the lexical query at weight 1. */
    OFF;

    /** Softens the cosine ratio; see the class comment for the sets it was chosen on. */
    static final double POWER = 0.5;
    /** A word whose embedding points away from the question's still counts a little (weights must be positive). */
    static final double MIN_WEIGHT = 0.01;
    static final int MAX_WORDS = 64;

    public boolean on() {
        return this != OFF;
    }

    /**
     * The weighted lexical query of each question (the variants of one request): each distinct word with its weight,
     * then each exact term quoted at weight 1; empty for a question with no word or more than {@link #MAX_WORDS}, which
     * is then searched as asked. The words of all the questions are embedded in one model call.
     *
     * @param questionVectors each question's embedding by {@code embedder}'s model, in the questions' order
     */
    public static List<Optional<List<WeightedText>>> queries(List<String> questions, List<float[]> questionVectors,
                                                             QueryEmbedder embedder) {
        List<List<String>> wordsOf = new ArrayList<>(questions.size());
        Set<String> toEmbed = new LinkedHashSet<>();
        for (String question : questions) {
            List<String> words = words(question);
            wordsOf.add(words.isEmpty() || words.size() > MAX_WORDS ? null : words);
            if (wordsOf.getLast() != null) {
                toEmbed.addAll(words);
            }
        }
        Map<String, float[]> vectorOf = new HashMap<>();
        if (!toEmbed.isEmpty()) {
            List<String> embedded = List.copyOf(toEmbed);
            float[][] vectors = embedder.embedQueries(embedded);
            for (int i = 0; i < vectors.length; i++) {
                vectorOf.put(embedded.get(i), vectors[i]);
            }
        }
        List<Optional<List<WeightedText>>> out = new ArrayList<>(questions.size());
        for (int q = 0; q < questions.size(); q++) {
            List<String> words = wordsOf.get(q);
            if (words == null) {
                out.add(Optional.empty());
                continue;
            }
            List<WeightedText> query = new ArrayList<>(weigh(words, questionVectors.get(q),
                    words.stream().map(vectorOf::get).toArray(float[][]::new)));
            ExactTerms.phrases(questions.get(q)).forEach(p -> query.add(new WeightedText("\"" + p + "\"", 1.0)));
            out.add(Optional.of(query));
        }
        return out;
    }

    /**
     * The question's distinct words (case folded for the comparison, the first spelling kept), each without the
     * punctuation around it and without double quotes, which the lexical query would read as a phrase.
     */
    static List<String> words(String question) {
        Map<String, String> distinct = new LinkedHashMap<>();
        String unquoted = question.replace('"', ' ').replace('\u201C', ' ').replace('\u201D', ' ').replace('\u201E', ' ');
        for (String token : unquoted.strip().split("\\s+")) {
            int from = 0;
            int to = token.length();
            while (from < to && !Character.isLetterOrDigit(token.codePointAt(from))) {
                from += Character.charCount(token.codePointAt(from));
            }
            while (to > from && !Character.isLetterOrDigit(token.codePointBefore(to))) {
                to -= Character.charCount(token.codePointBefore(to));
            }
            if (from < to) {
                String word = token.substring(from, to);
                distinct.putIfAbsent(word.toLowerCase(Locale.ROOT), word);
            }
        }
        return List.copyOf(distinct.values());
    }

    /** Each word with (cosine with the question / the largest cosine) ^ {@link #POWER}, at least {@link #MIN_WEIGHT}. */
    static List<WeightedText> weigh(List<String> words, float[] questionVector, float[][] wordVectors) {
        if (wordVectors.length != words.size()) {
            throw new IllegalArgumentException(words.size() + " words but " + wordVectors.length + " word vectors");
        }
        double[] cosine = new double[words.size()];
        double largest = 0;
        for (int i = 0; i < cosine.length; i++) {
            cosine[i] = Math.max(0, SentenceVectors.cosine(questionVector, wordVectors[i]));
            largest = Math.max(largest, cosine[i]);
        }
        List<WeightedText> out = new ArrayList<>(words.size());
        for (int i = 0; i < cosine.length; i++) {
            double weight = largest > 0 ? Math.pow(cosine[i] / largest, POWER) : 1.0;
            out.add(new WeightedText(words.get(i), Math.max(MIN_WEIGHT, weight)));
        }
        return out;
    }
}
