package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.chartstream.datasets.beir.BeirDataset;
import org.chartstream.datasets.beir.BeirSourceTable;
import org.chartstream.evaluation.DocumentRanking;
import org.chartstream.evaluation.EvalMode;
import org.chartstream.evaluation.EvaluationRuntime;
import org.chartstream.evaluation.ModeMetrics;
import org.chartstream.evaluation.RetrievalEvaluation;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A six-document BEIR folder through the real runtime: loaded as a PostgreSQL table, captured by Debezium, indexed
 * by the ingest topology, and queried through the query stages per mode.
 */
class BeirEvaluationIT {
    @TempDir
    static Path dataDir;
    private static BeirDataset dataset;
    private static EvaluationRuntime eval;

    @BeforeAll
    static void start() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        dataset = BeirDataset.load(Path.of(BeirEvaluationIT.class.getResource("/eval/tiny-beir").toURI()));
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dataDir.toString());
        eval = EvaluationRuntime.start(config, dataset.name(), List.of(BeirSourceTable.TABLE), c -> BeirSourceTable.load(c, dataset),
                Duration.ofMinutes(3), line -> System.out.println("[eval-it] " + line));
    }

    @AfterAll
    static void stop() {
        if (eval != null) {
            eval.close();
        }
    }

    private static RetrievalEvaluation.JudgedQuery query(String id) {
        return RetrievalEvaluation.judged(dataset).stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow();
    }

    private static ModeMetrics run(EvalMode mode, String... ids) {
        List<RetrievalEvaluation.JudgedQuery> queries = java.util.Arrays.stream(ids).map(BeirEvaluationIT::query).toList();
        return RetrievalEvaluation.run(mode, eval.pipeline(mode, 50), queries, 10, DocumentRanking::rowKey, line -> { }).overall();
    }

    @Test
    void onlyJudgedQueriesAreEvaluated() {
        assertThat(RetrievalEvaluation.judged(dataset)).extracting(RetrievalEvaluation.JudgedQuery::id).containsExactly("q1", "q2", "q3");
    }

    @Test
    void aQueryWhoseOnlyRelevantDocumentIsFoundFirstScoresOne() {
        ModeMetrics lexical = run(EvalMode.LEXICAL, "q1");
        assertThat(lexical.recallAt10()).isEqualTo(1.0);
        assertThat(lexical.mrrAt10()).isEqualTo(1.0);
        assertThat(lexical.ndcgAt10()).isCloseTo(1.0, within(1e-9));
        assertThat(lexical.p50Ms()).isPositive();
    }

    @Test
    void theSidesDifferWhereTheQueryAndItsAnswerShareNoWord() {
        // "pills for sugar disease" shares no term with the metformin passage: BM25 cannot find it, the vector side can
        assertThat(run(EvalMode.LEXICAL, "q2").recallAt10()).isZero();
        ModeMetrics vector = run(EvalMode.VECTOR, "q2");
        assertThat(vector.recallAt10()).isEqualTo(1.0);
        assertThat(run(EvalMode.HYBRID, "q2").recallAt10()).isEqualTo(1.0);
    }

    @Test
    void everyModeRunsOverAllQueriesAndWithoutACrossEncoderTheRerankModeKeepsTheFusedOrder() {
        for (EvalMode mode : EvalMode.values()) {
            ModeMetrics m = run(mode, "q1", "q2", "q3");
            assertThat(m.queries()).as(mode.label()).isEqualTo(3);
            assertThat(m.recallAt50()).as(mode.label()).isGreaterThanOrEqualTo(m.recallAt10());
        }
        var result = eval.pipeline(EvalMode.HYBRID_RERANK, 50).run(query("q3").text(), EvalMode.HYBRID_RERANK.searchMode(), 10, null);
        var ranked = (org.chartstream.retrieval.RetrievalTrace.Ranked) result.trace();
        assertThat(ranked.rerank().reranker()).startsWith("fused order kept");
        assertThat(ranked.reranked()).extracting(c -> c.fusedRank()).isSorted();
        assertThat(ranked.reranked()).allSatisfy(c -> assertThat(c.rerankScore()).isBetween(-1.0, 1.0));
        assertThat(DocumentRanking.finalOrder(result, DocumentRanking::rowKey)).isEqualTo(DocumentRanking.fused(result, DocumentRanking::rowKey));
        assertThat(DocumentRanking.finalOrder(result, DocumentRanking::rowKey).get(0)).isEqualTo("amoxicillin");
    }

    @Test
    void theRunDirectoryIsFreshUnderTheDataDirectory() throws Exception {
        try (var dirs = Files.list(dataDir.resolve("eval"))) {
            assertThat(dirs.map(p -> p.getFileName().toString()).toList()).singleElement().asString().startsWith("tiny-beir-");
        }
        assertThat(eval.runtime().indexedRowCounts()).containsExactly(Map.entry(BeirSourceTable.TABLE, 6L));
    }
}
