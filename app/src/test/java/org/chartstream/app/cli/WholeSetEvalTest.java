package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.chartstream.evaluation.sets.SetFigures;
import org.chartstream.evaluation.sets.SetScore;
import org.chartstream.retrieval.Outcome;
import org.junit.jupiter.api.Test;

class WholeSetEvalTest {

    @Test
    void theTableHasALinePerKindAndTheOverallLine() {
        SetFigures figures = new SetFigures();
        figures.add(new SetScore("dx-1", "cohort", "set", Outcome.ANSWER, true, true, false, false, 1.0, 1.0, null, null,
                null, true, null, 0));
        figures.add(new SetScore("un-1", "unanswerable", "text", Outcome.ANSWER, false, false, true, false, null, null, null,
                null, null, null, null, 0));

        String table = WholeSetEval.table(figures.figures());

        assertThat(table).containsPattern("cohort +1 +1 +0 +0 +0 +1 +1\\.000 +1\\.000");
        assertThat(table).containsPattern("unanswerable +1 +0 +1 +0 +0 +0 +- +-");
        assertThat(table).containsPattern("overall +2 +1 +1 +0 +0 +1");
    }

    @Test
    void aQuestionFileWithoutAWholeSetEvalIsRefusedNamingTheOptions() {
        java.io.StringWriter err = new java.io.StringWriter();
        int code = new picocli.CommandLine(new EvalCommand()).setErr(new java.io.PrintWriter(err))
                .execute("--beir", "corpus", "--questions", "held-out.jsonl");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--questions is a whole-set question file: it goes with --mimic or --clinical");
    }

    @Test
    void anExplicitQuestionFileIsUsedAsGiven() {
        assertThat(WholeSetEval.questionFile(Path.of("held-out.jsonl"), WholeSetEval.QUESTIONS)).isEqualTo(Path.of("held-out.jsonl"));
        assertThat(WholeSetEval.questionFile(null, WholeSetEval.QUESTIONS).toString()).endsWith(WholeSetEval.QUESTIONS);
    }
}
