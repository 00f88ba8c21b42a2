package org.chartstream.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.chartstream.datasets.Dataset;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.datasets.Datasets;
import org.chartstream.evaluation.EvaluationRuntime;
import org.chartstream.evaluation.sets.SetEvaluation;
import org.chartstream.evaluation.sets.SetQuestion;
import org.chartstream.evaluation.sets.SetQuestionFile;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The whole-set evaluations of {@code eval}: {@code --mimic} (the MIMIC-IV demo loaded as {@code run --dataset} loads
 * it, its question file asked and scored per kind) and the whole-set kinds {@code --clinical} reports beside its
 * retrieval figures.
 */
final class WholeSetEval {
    /** The MIMIC-IV demo's question file, relative to the repository root. */
    static final String QUESTIONS = "eval/mimic/questions.jsonl";
    /** The synthetic data's whole-set question file, relative to the repository root. */
    static final String CLINICAL_SET_QUESTIONS = "eval/clinical-sets/questions.jsonl";

    private WholeSetEval() {
    }

    /** {@code eval --mimic}: prints a table per kind, then the figures as one JSON object (also to {@code json}). */
    static int run(ChartstreamConfig userConfig, Path questionsOption, Path json) throws IOException, SQLException {
        Dataset dataset = Datasets.named(Datasets.MIMIC_IV_DEMO, () -> null).orElseThrow();
        ChartstreamConfig config = userConfig.underlay(dataset.configuration(), "dataset " + dataset.name());
        Path file = questionFile(questionsOption, QUESTIONS);
        List<SetQuestion> questions = SetQuestionFile.read(file);
        RunCommand.progress(String.format("%s: %d questions from %s", dataset.name(), questions.size(), file));
        List<String> tables = config.sourceList(config.sourceIds().get(0), "tables");
        long start = System.nanoTime();
        try (EvaluationRuntime eval = EvaluationRuntime.start(config, dataset.name(), tables,
                c -> dataset.load(c, RunCommand::progress), Duration.ofMinutes(60), RunCommand::progress)) {
            double searchableSeconds = (System.nanoTime() - start) / 1e9;
            RunCommand.progress(String.format("every table searchable after %.0f s", searchableSeconds));
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("dataset", dataset.name());
            report.put("questions_file", file.toString());
            report.put("tables", tables);
            report.put("rows_indexed", eval.runtime().indexedRowCounts().values().stream().mapToLong(Long::longValue).sum());
            report.put("searchable_after_s", Math.round(searchableSeconds));
            report.put("embedding_model", eval.config().string("embedding.model"));
            report.put("top_k", eval.config().integer("query.top-k"));
            report.put("scoring", SCORING);
            report.putAll(setKinds(eval, questions));
            String rendered = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
            if (json != null) {
                Files.writeString(json, rendered + "\n");
                RunCommand.progress("figures written to " + json);
            }
            System.out.print(table(report));
            System.out.println(rendered);
        }
        return 0;
    }

    /** What the JSON's scores mean, carried in it so a reader of the file alone knows. */
    static final String SCORING = "truth = each question's SQL on the loaded source; a reply is scored from its structured"
            + " set result (scored_from=set) when it carries one, else from its text and cited passages (scored_from=text:"
            + " patients = known patient numbers in the text and the cited rows' patients; count = the first whole number"
            + " of the text; values and rows by presence, extra values not detectable); exact = every scored key right;"
            + " false answer = answered and not exact, or answered an unanswerable; false complete = labelled complete"
            + " and not exact";

    /** The whole-set figures of {@code questions} asked of {@code eval}'s pipeline. */
    static Map<String, Object> setKinds(EvaluationRuntime eval, List<SetQuestion> questions) throws SQLException {
        return SetEvaluation.run(eval, questions, RunCommand::progress).figures();
    }

    static List<SetQuestion> questions(Path option, String shipped) {
        return SetQuestionFile.read(questionFile(option, shipped));
    }

    /** {@code option}, else the shipped file below the launcher's repository root, else below the working directory. */
    static Path questionFile(Path option, String shipped) {
        if (option != null) {
            return option;
        }
        String home = System.getProperty(DatasetSpec.HOME_PROPERTY);
        Path underHome = home == null ? null : Path.of(home).resolve(shipped);
        return underHome != null && Files.isRegularFile(underHome) ? underHome : Path.of(shipped);
    }

    /** One line per kind: exact, false answers, false complete labels and the kind's own measures. */
    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> figures) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nwhole-set kinds%n%-26s %5s %6s %6s %6s %6s %6s %7s %7s%n",
                "kind", "n", "exact", "false", "false", "refus", "from", "recall", "precis"));
        out.append(String.format(Locale.ROOT, "%-26s %5s %6s %6s %6s %6s %6s %7s %7s%n", "", "", "", "answer", "compl", "", "set", "", ""));
        Map<String, Object> rows = new LinkedHashMap<>((Map<String, Object>) figures.get("kinds"));
        rows.put("overall", figures.get("overall"));
        rows.forEach((kind, value) -> {
            Map<String, Object> f = (Map<String, Object>) value;
            out.append(String.format(Locale.ROOT, "%-26s %5d %6d %6d %6d %6d %6d %7s %7s%n", kind, (Integer) f.get("questions"),
                    (Integer) f.get("exact"), (Integer) f.get("false_answers"), (Integer) f.get("false_complete_labels"),
                    (Integer) f.get("refused"), (Integer) f.get("scored_from_set"), figure(f.get("patient_recall")),
                    figure(f.get("patient_precision"))));
        });
        return out.toString();
    }

    private static String figure(Object value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.3f", (Double) value);
    }
}
