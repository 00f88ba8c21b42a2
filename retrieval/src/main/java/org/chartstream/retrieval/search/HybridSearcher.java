package org.chartstream.retrieval.search;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.IntFunction;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.RowTextRejoiner;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.WeightedText;
import org.chartstream.retrieval.SearchMode;

/** Runs the vector and the lexical side of each query variant concurrently, each with the same exact filter. */
public final class HybridSearcher {
    private final HybridStore store;
    private final ExecutorService executor;
    private final int perSide;

    public HybridSearcher(HybridStore store, ExecutorService executor, int perSide) {
        this.store = store;
        this.executor = executor;
        this.perSide = perSide;
    }

    /** Both sides of every variant at once (vectors null in lexical mode); results in variant order. */
    public List<SideResults> searchAll(SearchMode mode, List<float[]> queryVectors, List<String> lexicalQueries, RetrievalFilter filter) {
        return searchAll(mode, queryVectors, lexicalQueries.size(), i -> store.lexicalSearch(lexicalQueries.get(i), perSide, filter), filter);
    }

    /**
     * {@link #searchAll} with each variant's lexical side searched by its weighted texts
     * ({@link HybridStore#weightedLexicalSearch}).
     */
    public List<SideResults> searchAllWeighted(SearchMode mode, List<float[]> queryVectors, List<List<WeightedText>> lexicalQueries,
                                               RetrievalFilter filter) {
        return searchAll(mode, queryVectors, lexicalQueries.size(),
                i -> store.weightedLexicalSearch(lexicalQueries.get(i), perSide, filter), filter);
    }

    private List<SideResults> searchAll(SearchMode mode, List<float[]> queryVectors, int variants, IntFunction<List<SearchHit>> lexicalSearch,
                                        RetrievalFilter filter) {
        List<CompletableFuture<List<SearchHit>>> vector = new java.util.ArrayList<>();
        List<CompletableFuture<List<SearchHit>>> lexical = new java.util.ArrayList<>();
        for (int i = 0; i < variants; i++) {
            float[] v = queryVectors == null ? null : queryVectors.get(i);
            int variant = i;
            vector.add(mode == SearchMode.LEXICAL ? CompletableFuture.completedFuture(List.of())
                    : CompletableFuture.supplyAsync(() -> store.vectorSearch(v, perSide, filter), executor));
            lexical.add(mode == SearchMode.VECTOR ? CompletableFuture.completedFuture(List.of())
                    : CompletableFuture.supplyAsync(() -> lexicalSearch.apply(variant), executor));
        }
        List<SideResults> out = new java.util.ArrayList<>();
        for (int i = 0; i < vector.size(); i++) {
            out.add(new SideResults(vector.get(i).join(), lexical.get(i).join()));
        }
        return out;
    }

    /** The vector side searched once per vector, concurrently; the lists in the vectors' order. */
    public List<List<SearchHit>> vectorSearches(List<float[]> queryVectors, RetrievalFilter filter) {
        List<CompletableFuture<List<SearchHit>>> searches = new java.util.ArrayList<>();
        for (float[] v : queryVectors) {
            searches.add(CompletableFuture.supplyAsync(() -> store.vectorSearch(v, perSide, filter), executor));
        }
        return searches.stream().map(CompletableFuture::join).toList();
    }

    /** Candidates per search side. */
    public int perSide() {
        return perSide;
    }

    /** The lexical side searched with weighted texts ({@link HybridStore#weightedLexicalSearch}). */
    public List<SearchHit> weightedLexical(List<WeightedText> query, RetrievalFilter filter) {
        return store.weightedLexicalSearch(query, perSide, filter);
    }

    /** Whether {@link #weightedLexical} applies its weights ({@link HybridStore#weighsLexicalTerms}). */
    public boolean weighsLexicalTerms() {
        return store.weighsLexicalTerms();
    }

    /** The row's whole text, its chunks rejoined; empty when the row is not in the index. */
    public String rowText(RowRef row) {
        return RowTextRejoiner.rejoin(store.rowChunks(row).stream().map(StoredChunk::text).toList());
    }

    /** The tables the index holds (published), which a request's filter may name. */
    public java.util.Set<org.chartstream.core.store.TableRef> indexedTables() {
        return store.activeGenerations().keySet();
    }

    public SideResults search(SearchMode mode, float[] queryVector, String lexicalQuery, RetrievalFilter filter) {
        return searchAll(mode, queryVector == null ? null : java.util.Collections.singletonList(queryVector), List.of(lexicalQuery), filter).get(0);
    }
}
