package org.chartstream.evaluation.sets;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.chartstream.evaluation.Conversations;
import org.chartstream.evaluation.EvaluationRuntime;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * Asks every question of a whole-set file through a query pipeline, in file order, and scores each reply against the
 * truth its SQL gives on the loaded source. The turns of one conversation are asked in order, each after the earlier
 * ones as the query topology's memory keeps them (a whole-set answer's turn carries its whole set of patients).
 * Progress lines carry ids and counts only.
 */
public final class SetEvaluation {
    private final QueryPipeline pipeline;
    private final SqlTruth truth;
    private final Set<String> patientNumbers;
    private final String scopeColumn;
    private final int topK;
    private final Consumer<String> progress;

    /**
     * @param patientNumbers every patient number of the source (a text reply is searched for them)
     * @param scopeColumn    the patient number column: a question whose scope names it is about that patient
     */
    public SetEvaluation(QueryPipeline pipeline, SqlTruth truth, Set<String> patientNumbers, String scopeColumn, int topK,
                         Consumer<String> progress) {
        this.pipeline = pipeline;
        this.truth = truth;
        this.patientNumbers = Set.copyOf(patientNumbers);
        this.scopeColumn = scopeColumn;
        this.topK = topK;
        this.progress = progress;
    }

    /**
     * Asks {@code questions} of the evaluation runtime's own query pipeline (the query topology's wiring) with the
     * configured {@code query.top-k}, the truth computed on its source database.
     */
    public static SetFigures run(EvaluationRuntime eval, List<SetQuestion> questions, Consumer<String> progress)
            throws SQLException {
        ChartstreamConfig config = eval.config();
        String source = config.sourceIds().get(0);
        try (Connection connection = eval.runtime().connection(source)) {
            SqlTruth truth = new SqlTruth(connection);
            String schema = config.sourceValue(source, "schema");
            String numberColumn = config.sourceValue(source, "patient-number-column");
            String patientTable = config.sourceValue(source, "patient-table");
            Set<String> numbers = numberColumn.isEmpty() ? Set.of()
                    : new HashSet<>(truth.column(schema.isEmpty() ? patientTable : schema + "." + patientTable, numberColumn));
            progress.accept(String.format("whole-set questions: %d, truth from the source's SQL; %d patient numbers known",
                    questions.size(), numbers.size()));
            return new SetEvaluation(eval.runtime().queryWiring().pipeline(), truth, numbers, numberColumn,
                    (int) config.integer("query.top-k"), progress).run(questions);
        }
    }

    public SetFigures run(List<SetQuestion> questions) {
        SetFigures figures = new SetFigures();
        Map<String, List<RecentTurn>> conversations = new HashMap<>();
        int done = 0;
        for (SetQuestion q : questions) {
            SqlTruth.Instance instance;
            Expected expected;
            try {
                instance = truth.instantiate(q);
                expected = truth.expected(instance);
            } catch (SQLException | RuntimeException e) {
                figures.notScored(q.id(), e.getMessage());
                progress.accept("question " + q.id() + " not scored: its SQL failed on this source");
                continue;
            }
            List<String> mismatches = expected.mismatches(q.stored());
            if (!mismatches.isEmpty()) {
                figures.truthMismatch(q.id(), mismatches);
            }
            List<RecentTurn> turns = q.conversation() == null ? List.of() : conversations.getOrDefault(q.conversation(), List.of());
            QueryPipeline.Result result = pipeline.run(instance.text(), SearchMode.HYBRID, topK, null,
                    turns.isEmpty() ? ConversationHistory.EMPTY : new ConversationHistory("", turns), QueryPipeline.Listener.NONE);
            if (q.conversation() != null) {
                List<RecentTurn> after = new ArrayList<>(turns);
                after.add(Conversations.turn(result, instance.text()));
                conversations.put(q.conversation(), after);
            }
            figures.add(SetScore.of(q, expected, ReplyReading.of(result.answer(), patientNumbers),
                    instance.scope().get(scopeColumn)));
            if (++done % 10 == 0) {
                progress.accept(String.format("whole-set questions: %d of %d asked", done, questions.size()));
            }
        }
        return figures;
    }
}
