package org.chartstream.query.search;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.chartstream.schemas.SearchMode;
import org.chartstream.store.HybridStore;
import org.chartstream.store.RetrievalFilter;
import org.chartstream.store.SearchHit;

/** Runs the vector and the lexical side of one question concurrently, each with the same exact filter. */
public final class HybridSearcher {
    private final HybridStore store;
    private final ExecutorService executor;
    private final int perSide;

    public HybridSearcher(HybridStore store, ExecutorService executor, int perSide) {
        this.store = store;
        this.executor = executor;
        this.perSide = perSide;
    }

    public SideResults search(SearchMode mode, float[] queryVector, String lexicalQuery, RetrievalFilter filter) {
        CompletableFuture<List<SearchHit>> vector = mode == SearchMode.LEXICAL
                ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> store.vectorSearch(queryVector, perSide, filter), executor);
        CompletableFuture<List<SearchHit>> lexical = mode == SearchMode.VECTOR
                ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> store.lexicalSearch(lexicalQuery, perSide, filter), executor);
        return new SideResults(vector.join(), lexical.join());
    }
}
