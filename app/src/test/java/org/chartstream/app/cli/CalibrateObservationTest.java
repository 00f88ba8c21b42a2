package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.evaluation.ClinicalQuestion;
import org.chartstream.evaluation.GateCalibration;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.gate.QuestionScope;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rerank.AdaptiveRerankPrefix;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.junit.jupiter.api.Test;

class CalibrateObservationTest {

    private static QueryPipeline.Result ranked(String rowText) {
        Candidate row = Candidate.lexicalHit(ChunkFixture.of("clinical", "medications", "1").text(rowText).build(), 1, 1)
                .withFused(1, 1).withRerankScore(1.0);
        RerankOutcome rerank = new RerankOutcome(List.of(row), new AdaptiveRerankPrefix.Cut(1, "none"), "r", "bi-encoder-cosine");
        ScopedGateDecision gate = new ScopedGateDecision(true, QuestionScope.POINTED, "", "bi-encoder-cosine", 1, 0.43, 1, "x");
        return new QueryPipeline.Result(new Answer(Outcome.ANSWER, "answer", true, List.of(), "g", List.of(), Optional.empty()),
                new RetrievalTrace.Ranked(List.of(), "", List.of(), List.of(row), rerank, gate), PatientScope.NONE, Map.of());
    }

    private static QueryPipeline.Result cohort(String rowText) {
        StoredChunk row = ChunkFixture.of("clinical", "medications", "1").text(rowText).build();
        return new QueryPipeline.Result(new Answer(Outcome.ANSWER, "answer", true, List.of(new Passage(1, row, 1.0, rowText)),
                RetrievalTrace.Cohort.LOOKUP, List.of(), Optional.empty()), new RetrievalTrace.Cohort(true, "x"), PatientScope.NONE,
                Map.of());
    }

    @Test
    void aCohortAnswerToAMisspeltWordIsAnAnswerNotAnUnmentionedAnchor() {
        String question = "Which patients take lisinoprl?";
        GateCalibration.Observation cohort = CalibrateCommand.observation(question, true,
                cohort("description: lisinopril 10 MG"), 6);
        GateCalibration.Observation ranked = CalibrateCommand.observation(question, true,
                ranked("description: lisinopril 10 MG"), 6);

        assertThat(cohort.unmentionedAnchor()).isFalse();
        assertThat(cohort.bestScore()).isEqualTo(1.0);
        assertThat(ranked.unmentionedAnchor()).as("the gate would refuse the ranked run").isTrue();
    }

    @Test
    void aQuestionsDetailNamesItsIdKindRowsAndGateInputsButNoText() {
        String question = "Which patients take lisinopril?";
        QueryPipeline.Result ranked = ranked("description: lisinopril 10 MG");
        GateCalibration.Observation o = CalibrateCommand.observation(question, true, ranked, 6);
        ClinicalQuestion q = new ClinicalQuestion("c271", "cohort", question, null, Map.of("medications:1", 1));

        Map<String, Object> detail = CalibrateCommand.detail(q, o, false, CalibrateCommand.top(ranked, 6));

        assertThat(detail).containsEntry("id", "c271").containsEntry("kind", "cohort").containsEntry("answerable", true)
                .containsEntry("follow_up", false).containsEntry("decided_by", "gate").containsEntry("pointed", false)
                .containsEntry("passages", 1).containsEntry("best_score", 1.0).containsEntry("unmentioned_anchor", false)
                .containsEntry("top_rows", List.of("medications:1")).containsEntry("top_scores", List.of(1.0));
        assertThat(detail.values()).noneMatch(v -> v.toString().contains("lisinopril"));
    }
}
