package org.chartstream.retrieval.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.TestCandidates;
import org.junit.jupiter.api.Test;

class ScopedEvidenceGateTest {
    private static final String POINTED = "What dose of lisinopril does Ana Ruiz take?";
    private static final String BROAD = "Which patients have asthma?";

    private final ScopedEvidenceGate gate = new ScopedEvidenceGate("cross-encoder-sigmoid",
            ScopedEvidenceGate.DEFAULT_CROSS_ENCODER_THRESHOLD);

    @Test
    void pointedQuestionsNeedEvidenceAtTheThreshold() {
        assertThat(gate.decide(POINTED, 0.30, 2).answer()).isTrue();

        ScopedGateDecision weak = gate.decide(POINTED, 0.29, 2);

        assertThat(weak.answer()).isFalse();
        assertThat(weak.scope()).isEqualTo(QuestionScope.POINTED);
        assertThat(weak.reason()).isEqualTo("pointed question and best evidence below threshold");
        assertThat(weak.describe()).isEqualTo("refuse (pointed, cross-encoder-sigmoid best=0.290 threshold=0.300, 2 passages:"
                + " pointed question and best evidence below threshold)");
    }

    @Test
    void broadQuestionsAreAnsweredFromWeakEvidence() {
        ScopedGateDecision weak = gate.decide(BROAD, 0.05, 3);

        assertThat(weak.answer()).isTrue();
        assertThat(weak.scope()).isEqualTo(QuestionScope.BROAD);
        assertThat(weak.describe()).startsWith("answer (broad by rule 'cohort', cross-encoder-sigmoid best=0.050");
    }

    @Test
    void aQuestionNamingACodeOrPersonNoRetrievedRecordMentionsIsRefusedWhateverItsScopeAndScore() {
        String absent = "What medications is Thaddeus Fairweather taking?";
        List<QuestionAnchors.Anchor> unmentioned = QuestionAnchors.unmentioned(QuestionAnchors.of(absent),
                List.of("patient: Ana Ruiz (MRN-7)\nmedication: Lisinopril 10 MG"));

        ScopedGateDecision refused = gate.decide(absent, 0.99, 3, unmentioned);

        assertThat(refused.answer()).isFalse();
        assertThat(refused.scope()).isEqualTo(QuestionScope.BROAD);
        assertThat(refused.reason()).isEqualTo("the question names a code, person, drug or condition that no retrieved record mentions");
        assertThat(refused.describe()).doesNotContain("Thaddeus", "Fairweather");
        assertThat(gate.decide(POINTED, 0.99, 3, List.of()).answer()).isTrue();
    }

    @Test
    void onCandidatesTheBestKeptScoreDecidesAndTheAnchorsAreLookedForInEveryConsideredText() {
        Candidate strong = TestCandidates.reranked(
                ChunkFixture.of("ehr", "medications", "1").text("medication: lisinopril 10 mg daily").build(), 0.8);
        Candidate trimmed = TestCandidates.reranked(
                ChunkFixture.of("ehr", "patients", "2").text("patient: Ana Ruiz").build(), 0.1);

        ScopedGateDecision decision = gate.decide(POINTED, List.of(strong), List.of(strong, trimmed));

        assertThat(decision.answer()).isTrue();
        assertThat(decision.bestScore()).isEqualTo(0.8);
        assertThat(decision.passages()).isEqualTo(1);
        assertThat(gate.decide(POINTED, List.of(strong), List.of(strong)).reason())
                .isEqualTo("the question names a code, person, drug or condition that no retrieved record mentions");
        assertThat(gate.decide(POINTED, List.of(), List.of()).reason()).isEqualTo("nothing retrieved");
    }

    @Test
    void everyQuestionIsRefusedWhenNothingWasRetrieved() {
        for (String question : new String[] {POINTED, BROAD}) {
            ScopedGateDecision none = gate.decide(question, 0.99, 0);
            assertThat(none.answer()).isFalse();
            assertThat(none.reason()).isEqualTo("nothing retrieved");
            assertThat(none.describe()).contains("best=-", "0 passages");
        }
    }

    @Test
    void convertsToTheAuditsGateDecision() {
        GateDecision d = gate.decide(POINTED, 0.8, 1).toGateDecision();

        assertThat(d).isEqualTo(new GateDecision(true, "cross-encoder-sigmoid", 0.8, 0.30, "evidence at or above threshold"));
        assertThat(gate.decide(POINTED, 0.8, 0).toGateDecision().bestScore()).isZero();
    }

    @Test
    void theThresholdMustBelongToANamedScorerAndScale() {
        assertThatThrownBy(() -> new ScopedEvidenceGate(" ", 0.3)).hasMessageContaining("scorer");
        assertThatThrownBy(() -> new ScopedEvidenceGate("x", Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> new ScopedEvidenceGate("x", 1.2)).hasMessageContaining("1.2");
    }
}
