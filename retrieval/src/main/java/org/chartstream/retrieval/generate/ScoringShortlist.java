package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.chartstream.retrieval.scope.Words;

/**
 * Which pieces of each record the embedding model scores, so that the cost of an extractive answer does not grow
 * with the length of the cited notes (the model's time is linear in the pieces and their tokens). A record with at
 * most {@code perRecord} pieces has all of them scored, one with no more pieces than it quotes
 * ({@link ExtractiveGenerator#SENTENCES_PER_PASSAGE}) none (it quotes them all). In a longer one, each piece is weighted by the question's
 * words it holds, each word by how rare it is among all pieces of the answer's records (1 / the number of pieces
 * holding it, so "the" or "patient" weigh little and no stop list is needed); each piece that holds any is taken
 * with the pieces either side of it, the heaviest first, then pieces ever further out (a plan sentence that shares
 * no word with a lay question usually sits next to one that does). A record that holds none of the question's words
 * has its first pieces scored. Each scored text is cut to {@code maxChars}: a sentence's topic is in its opening
 * words.
 *
 * @param perRecord most pieces of one record that are scored (at least {@link ExtractiveGenerator#SENTENCES_PER_PASSAGE})
 * @param maxChars  characters of a piece that are scored
 */
public record ScoringShortlist(int perRecord, int maxChars) {
    /**
     * 6 pieces of 240 characters (about 60 word pieces): a record's three quoted pieces are picked from twice as many,
     * and an answer over the default six records embeds at most 36 short texts, whatever the notes' length. Chosen by
     * the cost (the JMH figures in docs/PERFORMANCE.md), not tuned on answer quality, which no data set here judges.
     */
    public static final ScoringShortlist DEFAULT = new ScoringShortlist(6, 240);
    /** Every piece, whole: what the generator did before the shortlist (for the benchmark's comparison). */
    public static final ScoringShortlist EVERY_PIECE = new ScoringShortlist(Integer.MAX_VALUE, Integer.MAX_VALUE);
    private static final Pattern HYPHEN = Pattern.compile("-+");

    public ScoringShortlist {
        if (perRecord < ExtractiveGenerator.SENTENCES_PER_PASSAGE) {
            throw new IllegalArgumentException("perRecord must be at least " + ExtractiveGenerator.SENTENCES_PER_PASSAGE
                    + " (the pieces a record quotes), was " + perRecord);
        }
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive, was " + maxChars);
        }
    }

    /**
     * @param question the question
     * @param records  each record's pieces (as scored), in document order
     * @return per record, the positions of the pieces to score, ascending
     */
    List<List<Integer>> pick(String question, List<List<String>> records) {
        Set<String> asked = words(question);
        List<List<Set<String>>> pieceWords = records.stream().map(r -> r.stream().map(ScoringShortlist::words).toList()).toList();
        Map<String, Integer> piecesHolding = new HashMap<>();
        pieceWords.forEach(r -> r.forEach(w -> w.stream().filter(asked::contains).forEach(x -> piecesHolding.merge(x, 1, Integer::sum))));
        List<List<Integer>> picked = new ArrayList<>(records.size());
        for (List<Set<String>> record : pieceWords) {
            if (record.size() <= ExtractiveGenerator.SENTENCES_PER_PASSAGE) {
                picked.add(List.of()); // it quotes every piece it has, in its order, whatever their scores
            } else {
                picked.add(record.size() <= perRecord ? IntStream.range(0, record.size()).boxed().toList()
                        : shortlist(record, asked, piecesHolding));
            }
        }
        return picked;
    }

    /** The text of a piece as it is scored. */
    String scoredText(String piece) {
        if (piece.length() <= maxChars) {
            return piece;
        }
        int space = piece.lastIndexOf(' ', maxChars);
        return piece.substring(0, space > 0 ? space : maxChars);
    }

    private List<Integer> shortlist(List<Set<String>> record, Set<String> asked, Map<String, Integer> piecesHolding) {
        double[] weight = new double[record.size()];
        for (int i = 0; i < record.size(); i++) {
            for (String w : record.get(i)) {
                if (asked.contains(w)) {
                    weight[i] += 1.0 / piecesHolding.get(w);
                }
            }
        }
        List<Integer> byWeight = IntStream.range(0, record.size()).boxed().filter(i -> weight[i] > 0)
                .sorted(Comparator.comparingDouble((Integer i) -> -weight[i]).thenComparingInt(i -> i)).toList();
        TreeSet<Integer> picked = new TreeSet<>();
        if (byWeight.isEmpty()) {
            IntStream.range(0, perRecord).forEach(picked::add);
        }
        // each matching piece with the pieces either side of it, the best match first; then further out
        for (int distance = 1; picked.size() < perRecord && distance < record.size(); distance++) {
            for (int i : byWeight) {
                for (int p : distance == 1 ? new int[] {i, i - 1, i + 1} : new int[] {i - distance, i + distance}) {
                    if (picked.size() < perRecord && p >= 0 && p < record.size()) {
                        picked.add(p);
                    }
                }
            }
        }
        return List.copyOf(picked);
    }

    /** The text's folded words of two or more characters, a hyphenated word as its parts ("blood-pressure"). */
    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        for (String word : Words.folded(text)) {
            for (String part : HYPHEN.split(word)) {
                if (part.length() > 1) {
                    words.add(part);
                }
            }
        }
        return words;
    }
}
