package org.chartstream.retrieval.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;

/**
 * The embed step and the per-sentence vector searches of the query-side multi-vector rule ({@link SentenceVectors}):
 * the query variants and the first variant's sentences are embedded in one model call ({@link #embed}); the whole
 * question's vector list is then merged with the lists of its sentences' searches ({@link #vectorList}). A question
 * of one sentence, or the rule {@link SentenceVectors#OFF}, is embedded and searched as without the rule.
 */
public final class SentenceVectorSearch {
    /** The vector side searched once per vector, the lists in the vectors' order; {@code HybridSearcher::vectorSearches} is one. */
    @FunctionalInterface
    public interface VectorSearches {
        List<List<SearchHit>> search(List<float[]> vectors, RetrievalFilter filter);
    }

    /**
     * @param variants  one vector per query variant, in variant order (the first moved by {@link SentenceVectors#MEAN})
     * @param sentences the first variant's sentences' own vectors; empty for a question of one sentence
     */
    public record Embedded(List<float[]> variants, List<float[]> sentences) {
        public Embedded {
            variants = List.copyOf(variants);
            sentences = List.copyOf(sentences);
        }
    }

    private final SentenceVectors rule;
    private final QueryEmbedder embedder;
    private final VectorSearches searches;
    private final int perSide;

    /** @param perSide the length of a merged vector list (the search sides' candidates) */
    public SentenceVectorSearch(SentenceVectors rule, QueryEmbedder embedder, VectorSearches searches, int perSide) {
        this.rule = Objects.requireNonNull(rule, "rule");
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.searches = Objects.requireNonNull(searches, "searches");
        this.perSide = perSide;
    }

    /** The variants and the first variant's sentences, in one model call. */
    public Embedded embed(List<String> variants) {
        List<String> texts = new ArrayList<>(variants);
        texts.addAll(rule.sentences(variants.get(0)));
        List<float[]> embedded = List.of(embedder.embedQueries(texts));
        List<float[]> vectors = embedded.subList(0, variants.size());
        List<float[]> sentences = embedded.subList(variants.size(), embedded.size());
        if (rule == SentenceVectors.MEAN && !sentences.isEmpty()) {
            List<float[]> all = new ArrayList<>(sentences);
            all.add(0, vectors.get(0));
            List<float[]> moved = new ArrayList<>(vectors);
            moved.set(0, SentenceVectors.meanOfUnits(all));
            vectors = moved;
        }
        return new Embedded(vectors, sentences);
    }

    /**
     * The first variant's vector list merged with its sentences' lists by the rule; {@code whole} itself when the rule
     * searches no sentence or the question has one.
     */
    public List<SearchHit> vectorList(List<SearchHit> whole, Embedded embedded, RetrievalFilter filter) {
        if (!rule.searchesPerSentence() || embedded.sentences().isEmpty()) {
            return whole;
        }
        List<List<SearchHit>> lists = new ArrayList<>();
        lists.add(whole);
        lists.addAll(searches.search(embedded.sentences(), filter));
        return switch (rule) {
            case BLEND -> SentenceVectors.blend(lists, embedded.variants().get(0), embedded.sentences(), perSide);
            case STANDOUT, CLAUSES -> SentenceVectors.maxPerChunk(SentenceVectors.standingOut(lists), perSide);
            default -> SentenceVectors.maxPerChunk(lists, perSide);
        };
    }
}
