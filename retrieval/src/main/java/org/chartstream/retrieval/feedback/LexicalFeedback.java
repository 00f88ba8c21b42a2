package org.chartstream.retrieval.feedback;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.scope.Words;

/**
 * Pseudo-relevance feedback on the lexical side (RM3, Abdul-Jaleel et al. 2004, as Anserini implements it): the
 * lexical side is searched a second time with the question's terms interpolated with the most likely terms of the
 * first fused rows,
 * <pre>  weight(w) = questionWeight · p(w | question) + (1 − questionWeight) · p(w | feedback rows)</pre>
 * where p(w | question) is 1 / n for each of the question's n distinct terms, and p(w | feedback rows) is each row's
 * term frequency over its length, summed over the rows, cut to the {@link #terms} likeliest and renormalised.
 *
 * <p>The question keeps its own query (its exact-term phrases included) as one text weighted questionWeight / n, so
 * each of its terms counts questionWeight / n as in RM3; each expansion term is a text of its own.
 *
 * <p>Terms are the row text's words, folded, 2 to 20 letters or digits and not one of the index's stop words
 * (Anserini's RM3 term filter; the words the lexical index drops). 10 terms and question weight 0.7 are near the
 * usual RM3 settings (Anserini's defaults are 10 terms and 0.5); 1 feedback row, 10 terms and 0.7 are the best of the
 * variants estimated with a plain BM25 on liveqa-med-clean and aci-patient-words in session 8 (docs/EVALUATION.md:
 * 3 and 5 feedback rows lost on both).
 *
 * @param rows           first fused rows whose text is the feedback (0: no feedback)
 * @param terms          expansion terms kept
 * @param questionWeight the question's share of the second query, in (0, 1]
 */
public record LexicalFeedback(int rows, int terms, double questionWeight) {
    /** No second search. */
    public static final LexicalFeedback OFF = new LexicalFeedback(0, 0, 1);
    /** One row, ten terms, the question weighted 0.7 (above). */
    public static final LexicalFeedback RM3 = new LexicalFeedback(1, 10, 0.7);

    /** The one thing feedback reads of the store: a row's whole text. */
    @FunctionalInterface
    public interface RowTexts {
        /** The row's text as indexed; empty when the row has none any more. */
        String text(RowRef row);
    }

    /** Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET): what the lexical index leaves out. */
    static final Set<String> STOP_WORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if",
            "in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
            "these", "they", "this", "to", "was", "will", "with");

    private static final Pattern TERM = Pattern.compile("[a-z0-9]{2,20}");

    public LexicalFeedback {
        if (rows < 0 || terms < 0) {
            throw new IllegalArgumentException("feedback rows and terms must not be negative, were " + rows + ", " + terms);
        }
        if (!(questionWeight > 0 && questionWeight <= 1)) {
            throw new IllegalArgumentException("question weight must be within (0, 1], was " + questionWeight);
        }
    }

    public boolean on() {
        return rows > 0 && terms > 0 && questionWeight < 1;
    }

    /**
     * The second lexical query, or empty when feedback is off, the question has no term or the feedback rows no
     * term.
     *
     * @param question the question's lexical query (as the first search ran it)
     * @param fused    the fused list, best first
     */
    public Optional<List<WeightedText>> query(String question, List<Candidate> fused, RowTexts texts) {
        if (!on()) {
            return Optional.empty();
        }
        int questionTerms = new LinkedHashSet<>(terms(question)).size();
        Map<String, Double> feedback = feedbackModel(fused, texts);
        if (questionTerms == 0 || feedback.isEmpty()) {
            return Optional.empty();
        }
        List<WeightedText> query = new ArrayList<>(feedback.size() + 1);
        query.add(new WeightedText(question, questionWeight / questionTerms));
        feedback.forEach((term, p) -> query.add(new WeightedText(term, (1 - questionWeight) * p)));
        return Optional.of(List.copyOf(query));
    }

    /** p(w | feedback rows) of the {@link #terms} likeliest terms, renormalised, likeliest first (ties by term). */
    private Map<String, Double> feedbackModel(List<Candidate> fused, RowTexts texts) {
        Map<String, Double> p = new LinkedHashMap<>();
        for (Candidate c : fused.subList(0, Math.min(rows, fused.size()))) {
            List<String> words = terms(texts.text(c.chunk().row()));
            for (String w : words) {
                p.merge(w, 1.0 / words.size(), Double::sum);
            }
        }
        List<Map.Entry<String, Double>> likeliest = p.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(terms).toList();
        double sum = likeliest.stream().mapToDouble(Map.Entry::getValue).sum();
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : likeliest) {
            out.put(e.getKey(), e.getValue() / sum);
        }
        return out;
    }

    /** The text's feedback terms in order, repeats kept. */
    static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        for (String w : Words.folded(text)) {
            if (TERM.matcher(w).matches() && !STOP_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }
}
