package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import org.chartstream.core.store.RowRef;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.QueryPipeline;

/**
 * Turns what the query pipeline returned into rankings of evaluation document ids, one entry per source row: each
 * candidate's row (never parsed from an id) is mapped to a document id by the dataset's own rule.
 */
public final class DocumentRanking {
    private DocumentRanking() {
    }

    /** The fused order (before any rerank), one document per row, strongest chunk first. */
    public static List<String> fused(QueryPipeline.Result result, Function<RowRef, String> documentId) {
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        result.fused().forEach(c -> docs.add(documentId.apply(c.chunk().row())));
        return List.copyOf(docs);
    }

    /**
     * The final order: the reranked prefix in the rerank stage's order, then the rest of the fused order. With the
     * fused-order stage the prefix is in fused order, so this equals {@link #fused}.
     */
    public static List<String> finalOrder(QueryPipeline.Result result, Function<RowRef, String> documentId) {
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        for (List<Candidate> candidates : List.of(result.reranked(), result.fused())) {
            candidates.forEach(c -> docs.add(documentId.apply(c.chunk().row())));
        }
        return new ArrayList<>(docs);
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
