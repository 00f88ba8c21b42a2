package org.chartstream.retrieval.search;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.TermIndex;
import org.chartstream.core.store.WeightedText;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;

/**
 * The read side of the chunk store, all that the query stages use: searches, a row's chunks, the published tables and
 * the exact-term lookups. The write side ({@link HybridStore#upsertRow}, {@link HybridStore#commit} …) stays with the
 * materialiser; {@link #of} narrows a store to this view.
 */
public interface SearchIndex {

    /** {@link HybridStore#vectorSearch}. */
    List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter);

    /** {@link HybridStore#lexicalSearch}. */
    List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter);

    /** {@link HybridStore#weightedLexicalSearch}. */
    List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter);

    /** {@link HybridStore#weighsLexicalTerms}. */
    boolean weighsLexicalTerms();

    /** The active generation's chunks of {@code row} in chunk order ({@link HybridStore#rowChunks}). */
    List<StoredChunk> rowChunks(RowRef row);

    /** The published tables, which a cohort question's rows are looked up in. */
    Set<TableRef> indexedTables();

    /** {@link HybridStore#termIndex}. */
    Optional<TermIndex> termIndex();

    /** {@link HybridStore#answersRowSets}: false for an index that cannot answer an exact row set. */
    default boolean answersRowSets() {
        return false;
    }

    /** {@link HybridStore#rowSet}: the exact answer over the active generations' rows. */
    default RowSetResult rowSet(RowSetQuery query) {
        throw new UnsupportedOperationException("this index answers no row-set query");
    }

    /** {@link HybridStore#rowsWithoutFields}: rows a row set cannot judge (indexed before chunks carried fields). */
    default long rowsWithoutFields(RetrievalFilter filter) {
        return 0;
    }

    /** The read side of {@code store}. */
    static SearchIndex of(HybridStore store) {
        return new SearchIndex() {
            @Override
            public List<SearchHit> vectorSearch(float[] query, int k, RetrievalFilter filter) {
                return store.vectorSearch(query, k, filter);
            }

            @Override
            public List<SearchHit> lexicalSearch(String query, int k, RetrievalFilter filter) {
                return store.lexicalSearch(query, k, filter);
            }

            @Override
            public List<SearchHit> weightedLexicalSearch(List<WeightedText> query, int k, RetrievalFilter filter) {
                return store.weightedLexicalSearch(query, k, filter);
            }

            @Override
            public boolean weighsLexicalTerms() {
                return store.weighsLexicalTerms();
            }

            @Override
            public List<StoredChunk> rowChunks(RowRef row) {
                return store.rowChunks(row);
            }

            @Override
            public Set<TableRef> indexedTables() {
                return store.activeGenerations().keySet();
            }

            @Override
            public Optional<TermIndex> termIndex() {
                return store.termIndex();
            }

            @Override
            public boolean answersRowSets() {
                return store.answersRowSets();
            }

            @Override
            public RowSetResult rowSet(RowSetQuery query) {
                return store.rowSet(query);
            }

            @Override
            public long rowsWithoutFields(RetrievalFilter filter) {
                return store.rowsWithoutFields(filter);
            }
        };
    }
}
