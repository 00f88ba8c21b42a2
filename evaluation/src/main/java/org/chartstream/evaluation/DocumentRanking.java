package org.chartstream.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import org.chartstream.core.store.RowRef;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;

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
        rows(result, RetrievalTrace.Ranked::fused).forEach(row -> docs.add(documentId.apply(row)));
        return List.copyOf(docs);
    }

    /**
     * The final order: the reranked prefix in the rerank stage's order, then the rest of the fused order. With the
     * fused-order stage the prefix is in fused order, so this equals {@link #fused}.
     */
    public static List<String> finalOrder(QueryPipeline.Result result, Function<RowRef, String> documentId) {
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        rows(result, RetrievalTrace.Ranked::reranked).forEach(row -> docs.add(documentId.apply(row)));
        rows(result, RetrievalTrace.Ranked::fused).forEach(row -> docs.add(documentId.apply(row)));
        return new ArrayList<>(docs);
    }

    /**
     * The rows of one of a ranked run's candidate lists; for a cohort question the rows it listed (its passages, in
     * the answer's order), which no ranking scored; none for a clarification.
     */
    private static List<RowRef> rows(QueryPipeline.Result result, Function<RetrievalTrace.Ranked, List<Candidate>> candidates) {
        if (result.trace() instanceof RetrievalTrace.Ranked ranked) {
            return candidates.apply(ranked).stream().map(c -> c.chunk().row()).toList();
        }
        return result.answer().passages().stream().map(p -> p.chunk().row()).toList();
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
