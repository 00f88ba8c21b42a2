package org.chartstream.retrieval.plan;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.core.store.rowset.RowSetOutput;
import org.chartstream.core.store.rowset.RowSetQuery;
import org.chartstream.core.store.rowset.RowSetResult;
import org.chartstream.core.store.rowset.ValueCount;
import org.chartstream.retrieval.search.SearchIndex;

/**
 * The concepts the index holds: the distinct values of each table's concept field (the drug names, the code meanings),
 * read from the index itself with an exact row-set query and kept until the table's row count changes (a row added,
 * changed to a new value or deleted changes what a concept links to; the count is one cheap exact query per
 * question and table).
 */
public final class ConceptVocabulary {
    /** The most distinct values read for one field; more and the vocabulary says it is cut. */
    public static final int MAX_VALUES = 200_000;

    /** A field's distinct values and whether that is all of them. */
    public record Values(List<String> values, boolean complete) {
        public Values {
            values = List.copyOf(values);
        }
    }

    private record Key(String sourceId, String table, String field) {
    }

    private record Cached(long rows, Values values) {
    }

    private final SearchIndex index;
    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();

    public ConceptVocabulary(SearchIndex index) {
        this.index = index;
    }

    /** The distinct values of {@code field} over every row of {@code table}. */
    public Values of(BoundTable table, String field) {
        RetrievalFilter all = table.filter(RetrievalFilter.NONE);
        long rows = index.rowSet(RowSetQuery.of(RowSet.of(all), new RowSetOutput.Count())).rows();
        Key key = new Key(table.sourceId(), table.table(), field);
        Cached cached = cache.get(key);
        if (cached != null && cached.rows() == rows) {
            return cached.values();
        }
        RowSetResult read = index.rowSet(RowSetQuery.of(RowSet.of(all), new RowSetOutput.DistinctValues(field, MAX_VALUES)));
        Values values = new Values(read.values().stream().map(ValueCount::value).toList(), !read.capped());
        cache.put(key, new Cached(rows, values));
        return values;
    }
}
