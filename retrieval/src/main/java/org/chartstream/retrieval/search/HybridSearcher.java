package org.chartstream.retrieval.search;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.IntFunction;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.SearchMode;

/** Runs the vector and the lexical side of each query variant concurrently, each with the same exact filter. */
public final class HybridSearcher {
    private final SearchIndex index;
    private final ExecutorService executor;
    private final int perSide;

    public HybridSearcher(SearchIndex index, ExecutorService executor, int perSide) {
        this.index = index;
        this.executor = executor;
        this.perSide = perSide;
    }

    /** Both sides of every variant at once (vectors null in lexical mode); results in variant order. */
    public List<SideResults> searchAll(SearchMode mode, List<float[]> queryVectors, List<String> lexicalQueries, RetrievalFilter filter) {
        return searchAll(mode, queryVectors, lexicalQueries.size(), i -> index.lexicalSearch(lexicalQueries.get(i), perSide, filter), filter);
    }

    /**
     * {@link #searchAll} with each variant's lexical side searched by its weighted texts
     * ({@link SearchIndex#weightedLexicalSearch}).
     */
    public List<SideResults> searchAllWeighted(SearchMode mode, List<float[]> queryVectors, List<List<WeightedText>> lexicalQueries,
                                               RetrievalFilter filter) {
        return searchAll(mode, queryVectors, lexicalQueries.size(),
                i -> index.weightedLexicalSearch(lexicalQueries.get(i), perSide, filter), filter);
    }

    private List<SideResults> searchAll(SearchMode mode, List<float[]> queryVectors, int variants, IntFunction<List<SearchHit>> lexicalSearch,
                                        RetrievalFilter filter) {
        List<CompletableFuture<List<SearchHit>>> vector = new ArrayList<>();
        List<CompletableFuture<List<SearchHit>>> lexical = new ArrayList<>();
        for (int i = 0; i < variants; i++) {
            float[] v = queryVectors == null ? null : queryVectors.get(i);
            int variant = i;
            vector.add(mode == SearchMode.LEXICAL ? CompletableFuture.completedFuture(List.of())
                    : CompletableFuture.supplyAsync(() -> index.vectorSearch(v, perSide, filter), executor));
            lexical.add(mode == SearchMode.VECTOR ? CompletableFuture.completedFuture(List.of())
                    : CompletableFuture.supplyAsync(() -> lexicalSearch.apply(variant), executor));
        }
        List<SideResults> out = new ArrayList<>();
        for (int i = 0; i < vector.size(); i++) {
            out.add(new SideResults(vector.get(i).join(), lexical.get(i).join()));
        }
        return out;
    }

    /** The vector side searched once per vector, concurrently; the lists in the vectors' order. */
    public List<List<SearchHit>> vectorSearches(List<float[]> queryVectors, RetrievalFilter filter) {
        List<CompletableFuture<List<SearchHit>>> searches = new ArrayList<>();
        for (float[] v : queryVectors) {
            searches.add(CompletableFuture.supplyAsync(() -> index.vectorSearch(v, perSide, filter), executor));
        }
        return searches.stream().map(CompletableFuture::join).toList();
    }

    /** Candidates per search side. */
    public int perSide() {
        return perSide;
    }

    /** Whether the weighted lexical search applies its weights ({@link SearchIndex#weighsLexicalTerms}). */
    public boolean weighsLexicalTerms() {
        return index.weighsLexicalTerms();
    }
}
