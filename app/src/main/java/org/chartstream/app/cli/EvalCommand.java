package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.chartstream.app.Main;
import org.chartstream.core.store.RowRef;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.datasets.ClinicalSchema;
import org.chartstream.datasets.Datasets;
import org.chartstream.datasets.beir.BeirDataset;
import org.chartstream.datasets.beir.BeirSourceTable;
import org.chartstream.evaluation.ClinicalQuestionGenerator;
import org.chartstream.evaluation.ClinicalQuestionSet;
import org.chartstream.evaluation.CohortScores;
import org.chartstream.evaluation.DocumentRanking;
import org.chartstream.evaluation.EvalMode;
import org.chartstream.evaluation.EvaluationRuntime;
import org.chartstream.evaluation.ModeMetrics;
import org.chartstream.evaluation.RetrievalEvaluation;
import org.chartstream.evaluation.ScopeEvaluation;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine;

/**
 * Retrieval quality of the real pipeline: the corpus goes through the real ingest path (PostgreSQL, Debezium, ingest
 * topology, index log, Lucene) and every query through the real query stages, per mode.
 */
@Command(name = "eval", description = {
        "Measure retrieval quality through the real pipeline: the corpus goes through",
        "PostgreSQL, Debezium, the ingest topology and the index log into Lucene; every",
        "question through the query stages, per mode. A BEIR folder (corpus.jsonl,",
        "queries.jsonl, qrels/test.tsv) becomes the source table beir_docs; --clinical",
        "loads the synthetic clinical tables as the demo does and asks the generated",
        "clinical question set (documents are rows: table:row_key), then the whole-set kinds",
        "(eval/clinical-sets); --mimic loads the MIMIC-IV demo and asks its whole-set questions.",
        "Reports nDCG@10, Recall@10, Recall@50 (fused list, before rerank), MRR@10 and",
        "latency p50/p95 per mode. Runs in a fresh directory under <data.dir>/eval."})
public final class EvalCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    static final class Corpus {
        @Option(names = "--beir", paramLabel = "DIR", description = "a BEIR-format folder")
        Path beir;

        @Option(names = "--clinical", description = "the synthetic clinical tables and the generated clinical question set")
        boolean clinical;

        @Option(names = "--mimic", description = {"the MIMIC-IV demo (dataset " + Datasets.MIMIC_IV_DEMO + ", loaded as run --dataset loads it)",
                "and its whole-set questions (--questions), scored per kind against their SQL on the loaded source;",
                "prints one JSON object last"})
        boolean mimic;

        @Option(names = "--export-clinical", paramLabel = "DIR", description = "write the clinical question set of the configured"
                + " dataset to DIR (BEIR files; queries.jsonl also holds kind, answerable, previous turn) and exit")
        Path exportClinical;
    }

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Corpus corpus;

    @Option(names = "--modes", description = {"comma list of lexical, vector, hybrid, hybrid+rerank, hybrid+rrf, hybrid+fixed,",
            "hybrid+sentences-mean, hybrid+sentences-max, hybrid+sentences-blend, hybrid+sentences-off,",
            "hybrid+questions-max, hybrid+sentences-standout",
            "(default: ${DEFAULT-VALUE}); hybrid+rerank reorders the rerank prefix by the scorer in use;",
            "hybrid+rrf fuses with reciprocal rank fusion (query.fusion=rrf) whatever the configured fusion"},
            defaultValue = "lexical,vector,hybrid,hybrid+rerank,hybrid+rrf")
    String modes;

    @Option(names = "--questions", paramLabel = "FILE", description = {"the whole-set question file (JSON lines, see eval/mimic/README.md):",
            "with --mimic default " + WholeSetEval.QUESTIONS + ", with --clinical default " + WholeSetEval.CLINICAL_SET_QUESTIONS})
    Path questions;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the figures as JSON to FILE")
    Path json;

    @Option(names = "--per-side", paramLabel = "N", description = "candidates per search side (default: the configured query.per-side,"
            + " as the pipeline asks; at least " + RECALL_DEPTH + " for Recall@" + RECALL_DEPTH + ")")
    Integer perSideOption;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The depth of Recall@50: a side list shorter than this would make it the recall of a shorter list. */
    static final int RECALL_DEPTH = 50;

    private int perSide;

    @Option(names = "--rankings", paramLabel = "FILE", description = "write each query's side rankings and fused order"
            + " (mode, query id, document ids, chunk ids and scores; no text) as JSON lines to FILE, for analysis")
    Path rankings;

    @Override
    public Integer call() throws Exception {
        if (questions != null && !corpus.mimic && !corpus.clinical) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--questions is a whole-set question file: it goes with"
                    + " --mimic or --clinical");
        }
        OnnxRuntimeGuard.check();
        ChartstreamConfig config = config();
        List<EvalMode> evalModes = EvalMode.list(modes);
        if (corpus.exportClinical != null) {
            ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(clinicalDataset(config));
            set.write(corpus.exportClinical);
            RunCommand.progress(String.format("clinical question set written to %s: %d answerable, %d follow-ups, %d unanswerable, %d ambiguous names",
                    corpus.exportClinical, set.answerable().size(), set.followUps().size(), set.unanswerable().size(),
                    set.ambiguousNames().size()));
            return 0;
        }
        if (corpus.mimic) {
            return WholeSetEval.run(config, questions, json);
        }
        try {
            perSide = perSide(config);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (rankings != null) {
            java.nio.file.Files.deleteIfExists(rankings);
        }
        Map<String, Object> report = corpus.beir != null ? beir(config, evalModes) : clinical(config, evalModes);
        String rendered = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
        if (json != null) {
            java.nio.file.Files.writeString(json, rendered + "\n");
            RunCommand.progress("figures written to " + json);
        }
        System.out.print(table(report));
        return 0;
    }

    private Map<String, Object> beir(ChartstreamConfig config, List<EvalMode> evalModes) throws Exception {
        BeirDataset dataset = BeirDataset.load(corpus.beir);
        RunCommand.progress(String.format("dataset %s: %d documents, %d judged queries", dataset.name(), dataset.corpus().size(),
                dataset.queries().size()));
        try (EvaluationRuntime eval = EvaluationRuntime.start(config, dataset.name(), List.of(BeirSourceTable.TABLE),
                c -> BeirSourceTable.load(c, dataset), Duration.ofMinutes(60), RunCommand::progress)) {
            return evaluate(eval, dataset.name(), dataset.corpus().size(), RetrievalEvaluation.judged(dataset), evalModes,
                    DocumentRanking::rowKey, document -> null);
        }
    }

    private Map<String, Object> clinical(ChartstreamConfig config, List<EvalMode> evalModes) throws Exception {
        ClinicalDataset dataset = clinicalDataset(config);
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(dataset);
        int documents = dataset.rowCounts().values().stream().mapToInt(Integer::intValue).sum();
        RunCommand.progress(String.format("clinical question set: %d judged questions (%d follow-ups), %d rows", set.judged().size(),
                set.followUps().size(), documents));
        try (EvaluationRuntime eval = startClinical(config, dataset)) {
            Map<String, Object> report = evaluate(eval, "clinical", documents, set.judged(), evalModes,
                    DocumentRanking::tableAndRowKey, set.patientOfRow()::get);
            report.put("patient_scope", patientScope(eval, set, evalModes));
            report.put("set_kinds", WholeSetEval.setKinds(eval, WholeSetEval.questions(questions, WholeSetEval.CLINICAL_SET_QUESTIONS)));
            return report;
        }
    }

    /** Per mode: follow-ups' inherited patients and foreign citations, and how names several patients share are answered. */
    private Map<String, Object> patientScope(EvaluationRuntime eval, ClinicalQuestionSet set, List<EvalMode> evalModes) {
        Map<String, Object> byMode = new LinkedHashMap<>();
        for (EvalMode mode : evalModes) {
            byMode.put(mode.label(), ScopeEvaluation.run(eval.pipeline(mode, perSide), mode.searchMode(), DEPTH, set).figures());
            RunCommand.progress(mode.label() + ": patient scope checked");
        }
        return byMode;
    }

    private Map<String, Object> evaluate(EvaluationRuntime eval, String name, int documents, List<RetrievalEvaluation.JudgedQuery> queries,
                                         List<EvalMode> evalModes, Function<RowRef, String> documentId,
                                         Function<String, String> patientOfDocument) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", name);
        report.put("documents", documents);
        report.put("queries", queries.size());
        report.put("embedding_model", eval.runtime().model().modelId());
        report.put("per_side", perSide);
        report.put("chunk_window_tokens", eval.config().integer("chunk.window-tokens"));
        report.put("chunk_lead_tokens", eval.config().integer("chunk.lead-tokens"));
        report.put("embedding_model", eval.config().string("embedding.model"));
        report.put("rrf_k", eval.config().integer("query.rrf-k"));
        report.put("passage_scores", eval.scorer().name());
        Map<String, Object> byMode = new LinkedHashMap<>();
        Map<String, Map<String, Object>> byKind = new LinkedHashMap<>();
        for (EvalMode mode : evalModes) {
            CohortScores cohorts = new CohortScores(patientOfDocument);
            RetrievalEvaluation.ModeResult result = RetrievalEvaluation.run(mode, eval.pipeline(mode, perSide), queries,
                    DEPTH, documentId, RunCommand::progress, (q, r) -> {
                        writeRanking(mode, q, r, documentId);
                        cohorts.add(q, r.answer().passages(), documentId);
                    });
            byMode.put(mode.label(), figures(result.overall()));
            result.byKind().forEach((kind, m) -> {
                Map<String, Object> f = figures(m);
                if (kind.equals(CohortScores.KIND)) {
                    f.putAll(cohorts.figures());
                }
                byKind.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(mode.label(), f);
            });
        }
        report.put("modes", byMode);
        if (!byKind.isEmpty()) {
            report.put("kinds", byKind);
        }
        return report;
    }

    private void writeRanking(EvalMode mode, RetrievalEvaluation.JudgedQuery q, org.chartstream.retrieval.QueryPipeline.Result r,
                              Function<RowRef, String> documentId) {
        if (rankings == null) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("mode", mode.label());
        line.put("query", q.id());
        line.put("kind", q.kind());
        line.put("judgments", q.judgments());
        List<Map<String, Object>> vector = new java.util.ArrayList<>();
        List<Map<String, Object>> lexical = new java.util.ArrayList<>();
        RetrievalTrace.Ranked ranked = r.trace() instanceof RetrievalTrace.Ranked searched ? searched : null;
        for (var side : ranked == null ? List.<org.chartstream.retrieval.search.SideResults>of() : ranked.sides()) {
            side.vector().forEach(h -> vector.add(Map.of("doc", documentId.apply(h.chunk().row()), "chunk", h.chunk().chunkIndex(), "score", h.score())));
            side.lexical().forEach(h -> lexical.add(Map.of("doc", documentId.apply(h.chunk().row()), "chunk", h.chunk().chunkIndex(), "score", h.score())));
        }
        line.put("vector", vector);
        line.put("lexical", lexical);
        line.put("final", DocumentRanking.finalOrder(r, documentId));
        line.put("rerank_scores", ranked == null ? List.of() : ranked.reranked().stream().map(c -> c.rerankScore()).toList());
        try {
            java.nio.file.Files.writeString(rankings, new ObjectMapper().writeValueAsString(line) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** top_k asked of the pipeline: the rerank prefix covers at least the first ten. */
    static final int DEPTH = 10;

    static Map<String, Object> figures(ModeMetrics m) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("ndcg@10", round(m.ndcgAt10()));
        f.put("recall@10", round(m.recallAt10()));
        f.put("recall@50", round(m.recallAt50()));
        f.put("mrr@10", round(m.mrrAt10()));
        f.put("p50_ms", Math.round(m.p50Ms() * 10) / 10.0);
        f.put("p95_ms", Math.round(m.p95Ms() * 10) / 10.0);
        f.put("queries", m.queries());
        return f;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%s: %s documents, %s queries, model %s%n", report.get("dataset"), report.get("documents"),
                report.get("queries"), report.get("embedding_model")));
        appendModes(out, (Map<String, Object>) report.get("modes"), "");
        Map<String, Object> kinds = (Map<String, Object>) report.get("kinds");
        if (kinds != null) {
            kinds.forEach((kind, modes) -> {
                out.append(String.format("%nkind: %s%n", kind));
                appendModes(out, (Map<String, Object>) modes, "");
            });
        }
        Map<String, Object> scope = (Map<String, Object>) report.get("patient_scope");
        if (scope != null) {
            out.append(String.format("%npatient scope (follow-ups after their first turn; names several patients share)%n"));
            scope.forEach((mode, figures) -> out.append(String.format("%-14s %s%n", mode, figures)));
        }
        Map<String, Object> sets = (Map<String, Object>) report.get("set_kinds");
        if (sets != null) {
            out.append(WholeSetEval.table(sets));
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void appendModes(StringBuilder out, Map<String, Object> modes, String indent) {
        out.append(String.format(Locale.ROOT, "%s%-14s %8s %9s %9s %7s %8s %8s %5s%n", indent, "mode", "nDCG@10", "Recall@10",
                "Recall@50", "MRR@10", "p50 ms", "p95 ms", "n"));
        modes.forEach((mode, value) -> {
            Map<String, Object> f = (Map<String, Object>) value;
            out.append(String.format(Locale.ROOT, "%s%-14s %8.3f %9.3f %9.3f %7.3f %8.1f %8.1f %5d%n", indent, mode,
                    (Double) f.get("ndcg@10"), (Double) f.get("recall@10"), (Double) f.get("recall@50"), (Double) f.get("mrr@10"),
                    (Double) f.get("p50_ms"), (Double) f.get("p95_ms"), (Integer) f.get("queries")));
        });
    }

    /** The runtime with the synthetic clinical tables, loaded as the demo loads them. */
    static EvaluationRuntime startClinical(ChartstreamConfig config, ClinicalDataset dataset) throws java.io.IOException {
        return EvaluationRuntime.start(config, "clinical", ClinicalSchema.TABLES, c -> ClinicalDatasetLoader.load(c, dataset),
                Duration.ofMinutes(60), RunCommand::progress);
    }

    static ClinicalDataset clinicalDataset(ChartstreamConfig config) {
        return DemoCommand.generator(config).generate(DemoCommand.spec(config));
    }

    /** Candidates per search side: --per-side, else the configured query.per-side, so the eval measures the pipeline as run. */
    int perSide(ChartstreamConfig config) {
        int depth = perSideOption != null ? perSideOption : (int) config.integer("query.per-side");
        if (depth < RECALL_DEPTH) {
            throw new IllegalArgumentException(String.format("%d candidates per side (%s) is fewer than Recall@%d needs;"
                    + " pass --per-side %d or more", depth, perSideOption != null ? "--per-side" : "query.per-side", RECALL_DEPTH,
                    RECALL_DEPTH));
        }
        return depth;
    }

    ChartstreamConfig config() {
        return main != null ? main.config() : new Main().config();
    }

    /** Runs this command on its own, before it is registered as a subcommand of {@code chartstream}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new EvalCommand()).execute(args));
    }
}
