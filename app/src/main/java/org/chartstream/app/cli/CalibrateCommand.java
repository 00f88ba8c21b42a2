package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.evaluation.ClinicalQuestion;
import org.chartstream.evaluation.ClinicalQuestionGenerator;
import org.chartstream.evaluation.ClinicalQuestionSet;
import org.chartstream.evaluation.Conversations;
import org.chartstream.evaluation.DocumentRanking;
import org.chartstream.evaluation.EvaluationRuntime;
import org.chartstream.evaluation.GateCalibration;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.gate.QuestionScope;
import org.chartstream.retrieval.gate.QuestionScopeClassifier;
import org.chartstream.runtime.config.ChartstreamConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine;

/** Calibrates the gate threshold of the scorer in use on the clinical question set. */
@Command(name = "calibrate", description = {
        "Calibrate the refusal gate for the scorer actually in use (the bi-encoder",
        "cosine unless rerank.model-dir names a cross-encoder): loads the synthetic",
        "clinical dataset through the real pipeline, asks the generated answerable and",
        "unanswerable questions (hybrid, top_k = query.top-k) and prints refusal",
        "precision and recall over a sweep of thresholds, and the recommended one:",
        "the highest F1 of refusal, ties to the lowest threshold. The gate's anchor",
        "check (a question naming a code or person no retrieved record mentions is",
        "refused at every threshold) is part of what is measured. Follow-up turns are",
        "reported apart: without an LLM endpoint they are searched as asked."})
public final class CalibrateCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the sweep, the recommendation and each question's gate inputs (ids and scores, no text) as JSON to FILE")
    Path json;

    @Option(names = "--from", description = "lowest threshold of the sweep (default: ${DEFAULT-VALUE})", defaultValue = "0.0")
    double from;

    @Option(names = "--to", description = "highest threshold of the sweep (default: ${DEFAULT-VALUE})", defaultValue = "0.8")
    double to;

    @Option(names = "--step", description = "step of the sweep (default: ${DEFAULT-VALUE})", defaultValue = "0.01")
    double step;

    /**
     * What the gate would see of one run: its top_k's best rerank score, scope, passages and unmentioned anchors. A
     * cohort question is decided by its exact term lookup, not by the gate: answered with its rows (scored 1) or
     * refused with none, whatever the question's anchors.
     */
    static GateCalibration.Observation observation(String question, boolean answerable, QueryPipeline.Result result, int topK) {
        List<Candidate> top = top(result, topK);
        double best = top.stream().mapToDouble(Candidate::rerankScore).max().orElse(Double.NEGATIVE_INFINITY);
        boolean pointed = QuestionScopeClassifier.classify(question).scope() == QuestionScope.POINTED;
        boolean byCohort = result.trace() instanceof RetrievalTrace.Cohort;
        boolean unmentioned = !byCohort && !QuestionAnchors.unmentioned(QuestionAnchors.of(question),
                top.stream().map(c -> c.chunk().text()).toList()).isEmpty();
        return new GateCalibration.Observation(answerable, pointed, top.size(), best, unmentioned);
    }

    /**
     * The run's top k as the gate saw it, best first. A cohort's listed rows (its passages) count as scored 1: decided
     * by exact lookup, they pass any threshold; a clarification has none.
     */
    static List<Candidate> top(QueryPipeline.Result result, int topK) {
        List<Candidate> ranked = switch (result.trace()) {
            case RetrievalTrace.Ranked r -> r.reranked();
            case RetrievalTrace.Cohort c -> result.answer().passages().stream()
                    .map(p -> Candidate.lexicalHit(p.chunk(), 1.0, p.index()).withFused(1.0, p.index()).withRerankScore(1.0)).toList();
            case RetrievalTrace.Clarified c -> List.of();
            case RetrievalTrace.UnknownPatient u -> List.of();
        };
        return ranked.subList(0, Math.min(topK, ranked.size()));
    }

    @Override
    public Integer call() throws Exception {
        OnnxRuntimeGuard.check();
        ChartstreamConfig config = main != null ? main.config() : new Main().config();
        ClinicalDataset dataset = EvalCommand.clinicalDataset(config);
        ClinicalQuestionSet set = ClinicalQuestionGenerator.generate(dataset);
        int topK = (int) config.integer("query.top-k");
        List<GateCalibration.Observation> singleTurn = new ArrayList<>();
        List<GateCalibration.Observation> followUps = new ArrayList<>();
        List<String> singleTurnKinds = new ArrayList<>();
        List<Map<String, Object>> perQuestion = new ArrayList<>();
        List<GateCalibration.Observation> perQuestionObservations = new ArrayList<>();
        int answerableWithAnsweringRowInTopK = 0;
        String scorer;
        String reranker;
        double configured;
        try (EvaluationRuntime eval = EvalCommand.startClinical(config, dataset)) {
            QueryPipeline pipeline = eval.pipeline(org.chartstream.evaluation.EvalMode.HYBRID, (int) config.integer("query.per-side"));
            // a name several patients share expects a clarification, neither an answer nor a refusal
            List<ClinicalQuestion> questions = set.questions().stream().filter(q -> !q.expectsClarification()).toList();
            String lastScorer = "";
            String lastReranker = "";
            for (int i = 0; i < questions.size(); i++) {
                ClinicalQuestion q = questions.get(i);
                QueryPipeline.Result result = q.followUp()
                        ? pipeline.run(q.text(), SearchMode.HYBRID, topK, null, Conversations.after(
                                pipeline.run(q.previous(), SearchMode.HYBRID, topK, null), q.previous()), QueryPipeline.Listener.NONE)
                        : pipeline.run(q.text(), SearchMode.HYBRID, topK, null);
                List<Candidate> top = top(result, topK);
                boolean byCohort = result.trace() instanceof RetrievalTrace.Cohort;
                GateCalibration.Observation o = observation(q.text(), q.answerable(), result, topK);
                (q.followUp() ? followUps : singleTurn).add(o);
                perQuestion.add(detail(q, o, byCohort, top));
                perQuestionObservations.add(o);
                if (!q.followUp()) {
                    singleTurnKinds.add(q.kind());
                }
                if (q.answerable() && !q.followUp()
                        && top.stream().anyMatch(c -> q.judgments().containsKey(DocumentRanking.tableAndRowKey(c.chunk().row())))) {
                    answerableWithAnsweringRowInTopK++;
                }
                if (result.trace() instanceof RetrievalTrace.Ranked ranked) {
                    lastScorer = ranked.gate().scorer();
                    lastReranker = ranked.rerank().reranker();
                }
                if ((i + 1) % 25 == 0 || i + 1 == questions.size()) {
                    RunCommand.progress(String.format("calibrate: %d/%d questions", i + 1, questions.size()));
                }
            }
            scorer = lastScorer;
            reranker = lastReranker;
            configured = scorer.equals(org.chartstream.core.model.Reranker.CROSS_ENCODER_SIGMOID)
                    ? config.decimal("gate.threshold.cross-encoder") : config.decimal("gate.threshold.bi-encoder");
        }
        GateCalibration.Result result = GateCalibration.sweep(singleTurn, from, to, step);
        GateCalibration.Point atConfigured = GateCalibration.point(singleTurn, configured);
        GateCalibration.Point followUpsAtRecommended = GateCalibration.point(followUps, result.recommended().threshold());
        long answerable = singleTurn.stream().filter(GateCalibration.Observation::answerable).count();

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", "clinical");
        report.put("scorer", scorer);
        report.put("reranker", reranker);
        report.put("top_k", topK);
        report.put("answerable", answerable);
        report.put("unanswerable", singleTurn.size() - answerable);
        report.put("follow_ups", followUps.size());
        report.put("rule", GateCalibration.RULE);
        report.put("recommended", point(result.recommended()));
        report.put("configured", point(atConfigured));
        report.put("follow_ups_at_recommended", Map.of("false_refusal_rate", round(followUpsAtRecommended.falseRefusalRate()),
                "false_refusals", followUpsAtRecommended.falseRefusals()));
        report.put("answerable_with_answering_row_in_top_k", answerableWithAnsweringRowInTopK);
        report.put("refused_for_unmentioned_anchor", Map.of(
                "answerable", singleTurn.stream().filter(o -> o.answerable() && o.unmentionedAnchor() && o.passages() > 0).count(),
                "unanswerable", singleTurn.stream().filter(o -> !o.answerable() && o.unmentionedAnchor() && o.passages() > 0).count()));
        report.put("wrong_at_recommended_by_kind", wrongByKind(singleTurn, singleTurnKinds, result.recommended().threshold()));
        report.put("sweep", result.sweep().stream().map(CalibrateCommand::point).toList());
        for (int i = 0; i < perQuestion.size(); i++) {
            perQuestion.get(i).put("refused_at_recommended", GateCalibration.refused(perQuestionObservations.get(i), result.recommended().threshold()));
            perQuestion.get(i).put("refused_at_configured", GateCalibration.refused(perQuestionObservations.get(i), configured));
        }
        report.put("questions", perQuestion);
        if (json != null) {
            Files.writeString(json, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report) + "\n");
            RunCommand.progress("calibration written to " + json);
        }
        System.out.print(text(report, result, atConfigured, followUpsAtRecommended));
        return 0;
    }

    /**
     * One question's gate inputs by id (ids only: the question set's text is in {@code eval/clinical/queries.jsonl},
     * the rows' in its corpus), so that what the gate gets wrong can be looked at question by question.
     */
    static Map<String, Object> detail(ClinicalQuestion q, GateCalibration.Observation o, boolean byCohort, List<Candidate> top) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", q.id());
        m.put("kind", q.kind());
        m.put("answerable", q.answerable());
        m.put("follow_up", q.followUp());
        m.put("decided_by", byCohort ? "cohort" : "gate");
        m.put("pointed", o.pointed());
        m.put("passages", o.passages());
        m.put("best_score", Double.isFinite(o.bestScore()) ? round(o.bestScore()) : null);
        m.put("unmentioned_anchor", o.unmentionedAnchor());
        m.put("top_rows", top.stream().map(c -> DocumentRanking.tableAndRowKey(c.chunk().row())).toList());
        m.put("top_scores", top.stream().map(c -> round(c.rerankScore())).toList());
        return m;
    }

    /** Per question kind, how many the gate gets wrong at {@code threshold} (false refusals or false answers). */
    private static Map<String, Long> wrongByKind(List<GateCalibration.Observation> observations, List<String> kinds, double threshold) {
        Map<String, Long> wrong = new java.util.TreeMap<>();
        for (int i = 0; i < observations.size(); i++) {
            GateCalibration.Observation o = observations.get(i);
            wrong.merge(kinds.get(i), GateCalibration.refused(o, threshold) == o.answerable() ? 1L : 0L, Long::sum);
        }
        return wrong;
    }

    private static String text(Map<String, Object> report, GateCalibration.Result result, GateCalibration.Point atConfigured,
                               GateCalibration.Point followUps) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("scorer %s; %s answerable, %s unanswerable questions (%s follow-ups reported apart)%n",
                report.get("scorer"), report.get("answerable"), report.get("unanswerable"), report.get("follow_ups")));
        out.append(String.format(Locale.ROOT, "%9s %9s %9s %9s %13s %13s%n", "threshold", "precision", "recall", "F1",
                "false refusal", "false answer"));
        for (GateCalibration.Point p : result.sweep()) {
            out.append(line(p));
        }
        GateCalibration.Point r = result.recommended();
        out.append(String.format(Locale.ROOT, "%nrecommended threshold %.2f (%s)%n", r.threshold(), GateCalibration.RULE));
        out.append(String.format(Locale.ROOT, "  false refusals on answerable: %d/%d (%.1f %%); false answers on unanswerable: %d/%d (%.1f %%)%n",
                r.falseRefusals(), r.answerable(), 100 * r.falseRefusalRate(), r.falseAnswers(), r.unanswerable(), 100 * r.falseAnswerRate()));
        out.append(String.format(Locale.ROOT, "  follow-ups (after their first turn): %d/%d refused%n", followUps.falseRefusals(), followUps.answerable()));
        out.append(String.format(Locale.ROOT, "configured threshold %.2f: false refusals %d/%d, false answers %d/%d%n", atConfigured.threshold(),
                atConfigured.falseRefusals(), atConfigured.answerable(), atConfigured.falseAnswers(), atConfigured.unanswerable()));
        return out.toString();
    }

    private static String line(GateCalibration.Point p) {
        return String.format(Locale.ROOT, "%9.2f %9.3f %9.3f %9.3f %13.3f %13.3f%n", p.threshold(), p.refusalPrecision(),
                p.refusalRecall(), p.refusalF1(), p.falseRefusalRate(), p.falseAnswerRate());
    }

    private static Map<String, Object> point(GateCalibration.Point p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threshold", p.threshold());
        m.put("refusal_precision", round(p.refusalPrecision()));
        m.put("refusal_recall", round(p.refusalRecall()));
        m.put("refusal_f1", round(p.refusalF1()));
        m.put("false_refusal_rate", round(p.falseRefusalRate()));
        m.put("false_answer_rate", round(p.falseAnswerRate()));
        m.put("false_refusals", p.falseRefusals());
        m.put("false_answers", p.falseAnswers());
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    /** Runs this command on its own, before it is registered as a subcommand of {@code chartstream}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new CalibrateCommand()).execute(args));
    }
}
