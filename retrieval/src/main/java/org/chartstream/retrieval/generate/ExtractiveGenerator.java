package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.chartstream.retrieval.context.ContextPassage;

/**
 * The generator when no generation model is configured: from each context passage, the sentences or fields that
 * best answer the question, scored against it by a {@link SentenceScorer} (the embedding model), quoted in the
 * record's own order, each followed by its citation number, grouped by patient, under {@link ExtractiveAnswer#LABEL}
 * so nobody mistakes them for a generated answer. Only for "no endpoint configured"; a configured endpoint that
 * fails gives {@link GenerationResult.Outcome#UNAVAILABLE}.
 *
 * <p>Each passage quotes at most {@link #SENTENCES_PER_PASSAGE} pieces and {@code maxCharsPerPassage} characters
 * (a piece longer than that is cut at a word), so the answer stays within the context's token budget. A passage
 * always quotes its best piece.
 */
public final class ExtractiveGenerator implements Generator {
    public static final String NAME = "extractive (no generation model configured)";
    /** Pieces quoted per record: a note's plan or a finding is one to three sentences (aci-bench notes, 50 patients). */
    static final int SENTENCES_PER_PASSAGE = 3;

    private final SentenceScorer scorer;
    private final int maxCharsPerPassage;
    private final ScoringShortlist shortlist;

    public ExtractiveGenerator(SentenceScorer scorer, int maxCharsPerPassage) {
        this(scorer, maxCharsPerPassage, ScoringShortlist.DEFAULT);
    }

    /** @param shortlist which pieces of each record the scorer sees */
    public ExtractiveGenerator(SentenceScorer scorer, int maxCharsPerPassage, ScoringShortlist shortlist) {
        if (maxCharsPerPassage < 1) {
            throw new IllegalArgumentException("maxCharsPerPassage must be positive, was " + maxCharsPerPassage);
        }
        this.scorer = Objects.requireNonNull(scorer, "scorer");
        this.maxCharsPerPassage = maxCharsPerPassage;
        this.shortlist = Objects.requireNonNull(shortlist, "shortlist");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken) {
        if (passages.isEmpty()) {
            return new GenerationResult(GenerationResult.Outcome.REFUSED, GroundedPrompt.REFUSAL,
                    CitationMarkers.check("", 0), NAME, "no passages to quote", null, 0);
        }
        List<RecordSentences> records = passages.stream().map(p -> RecordSentences.of(p.text())).toList();
        double[] scores = scores(question, records);

        Map<String, List<String>> byPatient = new LinkedHashMap<>();
        int offset = 0;
        int quoted = 0;
        for (int i = 0; i < passages.size(); i++) {
            ContextPassage p = passages.get(i);
            RecordSentences record = records.get(i);
            List<RecordSentences.Sentence> sentences = record.sentences();
            String line = quote(p.index(), record, selected(scores, offset, sentences));
            offset += sentences.size();
            quoted += sentences.isEmpty() ? 0 : 1;
            // the ingest's label names a patient known by number alone too ("patient 10014078"); the header is older chunks'
            String labelled = p.anchor().patient() == null ? null : p.anchor().patient().display();
            byPatient.computeIfAbsent(labelled != null ? labelled : record.patient(), k -> new ArrayList<>()).add(line);
        }
        StringBuilder answer = new StringBuilder(ExtractiveAnswer.LABEL);
        byPatient.forEach((patient, lines) -> {
            answer.append('\n').append(patient.isEmpty() ? "Records without a patient" : patient).append(':');
            lines.forEach(l -> answer.append("\n  ").append(l));
        });
        String text = answer.toString();
        return new GenerationResult(GenerationResult.Outcome.EXTRACTIVE, text, CitationMarkers.check(text, passages.size()),
                NAME, "no generation model configured: sentences of " + quoted + " of " + passages.size()
                + " passages quoted", null, 0);
    }

    /**
     * Every piece's score, the pieces of all records one after another; a piece left off the shortlist scores
     * below every scored one, so it is quoted only when its record has fewer scored pieces than it quotes.
     */
    private double[] scores(String question, List<RecordSentences> records) {
        List<List<String>> pieces = records.stream()
                .map(r -> r.sentences().stream().map(RecordSentences.Sentence::scored).toList()).toList();
        List<List<Integer>> picked = shortlist.pick(question, pieces);
        List<String> texts = new ArrayList<>();
        for (int r = 0; r < pieces.size(); r++) {
            for (int i : picked.get(r)) {
                texts.add(shortlist.scoredText(pieces.get(r).get(i)));
            }
        }
        double[] relevance = texts.isEmpty() ? new double[0] : scorer.relevance(question, texts);
        double[] scores = new double[pieces.stream().mapToInt(List::size).sum()];
        Arrays.fill(scores, Double.NEGATIVE_INFINITY);
        int offset = 0;
        int next = 0;
        for (int r = 0; r < pieces.size(); r++) {
            for (int i : picked.get(r)) {
                scores[offset + i] = relevance[next++];
            }
            offset += pieces.get(r).size();
        }
        return scores;
    }

    /** The best pieces of one record (positions within it), in the record's order. */
    private static List<Integer> selected(double[] scores, int offset, List<RecordSentences.Sentence> sentences) {
        return IntStream.range(0, sentences.size()).boxed()
                .sorted(Comparator.comparingDouble((Integer s) -> -scores[offset + s]).thenComparingInt(s -> s))
                .limit(SENTENCES_PER_PASSAGE).sorted().toList();
    }

    private String quote(int index, RecordSentences record, List<Integer> picked) {
        StringBuilder line = new StringBuilder(record.recordType().isEmpty() ? "record" : record.recordType()).append(':');
        String marker = " [" + index + "]";
        int budget = maxCharsPerPassage;
        String section = "";
        boolean first = true;
        for (int s : picked) {
            RecordSentences.Sentence sentence = record.sentences().get(s);
            String text = sentence.text().replaceAll("\\s+", " ");
            if (!sentence.section().isEmpty() && !sentence.section().equals(section)) {
                text = sentence.section() + ": " + text;
                section = sentence.section();
            }
            if (!first && text.length() > budget) {
                break;
            }
            line.append(' ').append(cut(text, budget)).append(marker);
            budget -= text.length();
            first = false;
        }
        if (picked.isEmpty()) {
            line.append(marker);
        }
        return line.toString();
    }

    private static String cut(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int space = text.lastIndexOf(' ', maxChars);
        return text.substring(0, space > 0 ? space : maxChars).stripTrailing() + " …";
    }
}
