package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.evaluation.ClinicalQuestion;
import org.chartstream.evaluation.GateCalibration;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.gate.GateDecision;
import org.junit.jupiter.api.Test;

class CalibrateObservationTest {

    private static QueryPipeline.Result result(String scorer, String rowText) {
        Candidate row = Candidate.lexicalHit(ChunkFixture.of("clinical", "medications", "1").text(rowText).build(), 1, 1)
                .withFused(1, 1).withRerankScore(1.0);
        return new QueryPipeline.Result(Outcome.ANSWER, "answer", true, List.of(), List.of(), "", List.of(), List.of(row),
                List.of(row), "r", "none", new GateDecision(true, scorer, 1, 0.43, "x"), "x", "g", List.of(), Map.of(),
                null, PatientScope.NONE);
    }

    @Test
    void aCohortAnswerToAMisspeltWordIsAnAnswerNotAnUnmentionedAnchor() {
        String question = "Which patients take lisinoprl?";
        GateCalibration.Observation cohort = CalibrateCommand.observation(question, true,
                result(QueryPipeline.EXACT_TERM_SCORER, "description: lisinopril 10 MG"), 6);
        GateCalibration.Observation ranked = CalibrateCommand.observation(question, true,
                result("bi-encoder-cosine", "description: lisinopril 10 MG"), 6);

        assertThat(cohort.unmentionedAnchor()).isFalse();
        assertThat(cohort.bestScore()).isEqualTo(1.0);
        assertThat(ranked.unmentionedAnchor()).as("the gate would refuse the ranked run").isTrue();
    }

    @Test
    void aQuestionsDetailNamesItsIdKindRowsAndGateInputsButNoText() {
        String question = "Which patients take lisinopril?";
        QueryPipeline.Result ranked = result("bi-encoder-cosine", "description: lisinopril 10 MG");
        GateCalibration.Observation o = CalibrateCommand.observation(question, true, ranked, 6);
        ClinicalQuestion q = new ClinicalQuestion("c271", "cohort", question, null, Map.of("medications:1", 1));

        Map<String, Object> detail = CalibrateCommand.detail(q, o, false, ranked.reranked());

        assertThat(detail).containsEntry("id", "c271").containsEntry("kind", "cohort").containsEntry("answerable", true)
                .containsEntry("follow_up", false).containsEntry("decided_by", "gate").containsEntry("pointed", false)
                .containsEntry("passages", 1).containsEntry("best_score", 1.0).containsEntry("unmentioned_anchor", false)
                .containsEntry("top_rows", List.of("medications:1")).containsEntry("top_scores", List.of(1.0));
        assertThat(detail.values()).noneMatch(v -> v.toString().contains("lisinopril"));
    }
}
