package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.SearchHit;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.rerank.RerankedCandidate;
import org.chartstream.retrieval.search.SideResults;

/**
 * Turns what the query pipeline returned into rankings of evaluation document ids, one entry per source row: chunk
 * ids are mapped to their rows through the search hits that produced them (never by parsing the id), and the row to
 * a document id by the dataset's own rule.
 */
public final class DocumentRanking {
    private DocumentRanking() {
    }

    /** The fused order (before any rerank), one document per row, strongest chunk first. */
    public static List<String> fused(QueryPipeline.Result result, Function<RowRef, String> documentId) {
        Map<String, RowRef> rows = rowsByChunk(result);
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        result.fused().forEach(c -> docs.add(documentId.apply(rows.get(c.id()))));
        return List.copyOf(docs);
    }

    /**
     * The final order: the reranked prefix in the rerank stage's order, then the rest of the fused order. With the
     * fused-order stage the prefix is in fused order, so this equals {@link #fused}.
     */
    public static List<String> finalOrder(QueryPipeline.Result result, Function<RowRef, String> documentId) {
        Map<String, RowRef> rows = rowsByChunk(result);
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        for (RerankedCandidate r : result.reranked()) {
            docs.add(documentId.apply(rows.get(r.candidate().chunkId())));
        }
        result.fused().forEach(c -> docs.add(documentId.apply(rows.get(c.id()))));
        return new ArrayList<>(docs);
    }

    private static Map<String, RowRef> rowsByChunk(QueryPipeline.Result result) {
        Map<String, RowRef> rows = new HashMap<>();
        for (SideResults side : result.sides()) {
            for (List<SearchHit> hits : List.of(side.vector(), side.lexical())) {
                hits.forEach(h -> rows.putIfAbsent(h.chunk().chunkId(), h.chunk().row()));
            }
        }
        return rows;
    }

    /** BEIR documents loaded as a source table: the row key is the document id. */
    public static String rowKey(RowRef row) {
        return row.rowKey();
    }

    /** Clinical rows: {@code table:row_key}. */
    public static String tableAndRowKey(RowRef row) {
        return row.table() + ":" + row.rowKey();
    }
}
