package org.chartstream.evaluation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.chartstream.core.store.RowRef;
import org.chartstream.datasets.beir.BeirDataset;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.rewrite.ConversationHistory;

/**
 * Sends every judged query through a query pipeline and scores the rankings it returns; a follow-up is asked after
 * its previous turn, with that turn as the conversation so far (as the query topology's memory hands it on). Progress lines carry counts
 * and ids only, never question or record text.
 */
public final class RetrievalEvaluation {
    /**
     * A judged query: its id, its text, its kind (for per-kind figures; may be empty), its judgments and, for a
     * follow-up, the question of the turn before it (asked first, in the same conversation); else null.
     */
    public record JudgedQuery(String id, String text, String kind, Map<String, Integer> judgments, String previous) {
        public JudgedQuery(String id, String text, String kind, Map<String, Integer> judgments) {
            this(id, text, kind, judgments, null);
        }
    }

    /** The figures of one mode: over all queries and per kind. */
    public record ModeResult(ModeMetrics overall, Map<String, ModeMetrics> byKind) {
    }

    private RetrievalEvaluation() {
    }

    /** The judged queries of a BEIR dataset (all of one kind, {@code ""}). */
    public static List<JudgedQuery> judged(BeirDataset dataset) {
        return dataset.queries().stream().map(q -> new JudgedQuery(q.id(), q.text(), "", dataset.qrels().get(q.id()))).toList();
    }

    /**
     * @param depth top_k asked of the pipeline; the rerank prefix is never shorter
     */
    public static ModeResult run(EvalMode mode, QueryPipeline pipeline, List<JudgedQuery> queries, int depth,
                                 Function<RowRef, String> documentId, Consumer<String> progress) {
        return run(mode, pipeline, queries, depth, documentId, progress, (q, r) -> { });
    }

    /**
     * @param perQuery told each query's result (for writing rankings; ids and scores only leave through it)
     */
    public static ModeResult run(EvalMode mode, QueryPipeline pipeline, List<JudgedQuery> queries, int depth,
                                 Function<RowRef, String> documentId, Consumer<String> progress,
                                 java.util.function.BiConsumer<JudgedQuery, QueryPipeline.Result> perQuery) {
        ModeMetrics.Accumulator all = new ModeMetrics.Accumulator();
        Map<String, ModeMetrics.Accumulator> kinds = new LinkedHashMap<>();
        long lastReport = System.nanoTime();
        for (int i = 0; i < queries.size(); i++) {
            JudgedQuery q = queries.get(i);
            ConversationHistory history = q.previous() == null ? ConversationHistory.EMPTY
                    : Conversations.after(pipeline.run(q.previous(), mode.searchMode(), depth, null), q.previous());
            long start = System.nanoTime();
            QueryPipeline.Result result = pipeline.run(q.text(), mode.searchMode(), depth, null, history, QueryPipeline.Listener.NONE);
            double ms = (System.nanoTime() - start) / 1e6;
            perQuery.accept(q, result);
            List<String> fused = DocumentRanking.fused(result, documentId);
            List<String> ranked = DocumentRanking.finalOrder(result, documentId);
            all.add(ranked, fused, q.judgments(), ms);
            if (!q.kind().isEmpty()) {
                kinds.computeIfAbsent(q.kind(), k -> new ModeMetrics.Accumulator()).add(ranked, fused, q.judgments(), ms);
            }
            if (System.nanoTime() - lastReport > 5_000_000_000L || i + 1 == queries.size()) {
                lastReport = System.nanoTime();
                progress.accept(String.format("%s: %d/%d queries", mode.label(), i + 1, queries.size()));
            }
        }
        Map<String, ModeMetrics> byKind = new LinkedHashMap<>();
        kinds.forEach((k, acc) -> byKind.put(k, acc.metrics()));
        return new ModeResult(all.metrics(), byKind);
    }
}
