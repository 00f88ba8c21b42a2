package org.chartstream.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.retrieval.Answer;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.generate.Passage;
import org.junit.jupiter.api.Test;

class ScopeEvaluationTest {
    static Passage cited(String rowKey, String patient) {
        return new Passage(1, ChunkFixture.of("ehr", "medications", rowKey).patient(patient).build(), 0.5, "t");
    }

    static QueryPipeline.Result result(Outcome outcome, PatientScope scope, List<Passage> passages) {
        return new QueryPipeline.Result(new Answer(outcome, "", true, passages, "g", List.of(), Optional.empty()),
                new RetrievalTrace.Clarified("q", "-"), scope, Map.of());
    }

    static PatientScope scope(PatientScope.Source source, String patient) {
        return new PatientScope(source, patient, List.of());
    }

    @Test
    void countsInheritedFollowUpsTheirForeignCitationsAndAWrongInheritedPatient() {
        ScopeEvaluation.Counts counts = new ScopeEvaluation.Counts();
        QueryPipeline.Result first = result(Outcome.ANSWER, scope(PatientScope.Source.NAMED, "MRN-7"), List.of(cited("m1", "MRN-7")));

        counts.followUp(first, result(Outcome.ANSWER, scope(PatientScope.Source.INHERITED, "MRN-7"),
                List.of(cited("m1", "MRN-7"), cited("m2", "MRN-12"))));
        counts.followUp(first, result(Outcome.ANSWER, scope(PatientScope.Source.INHERITED, "MRN-12"), List.of(cited("m2", "MRN-12"))));
        counts.followUp(first, result(Outcome.CLARIFY, new PatientScope(PatientScope.Source.AMBIGUOUS, null, List.of()), List.of()));

        assertThat(counts.figures()).containsEntry("follow_ups", 3).containsEntry("follow_ups_inherited", 2)
                .containsEntry("follow_ups_inherited_another_patient", 1).containsEntry("follow_ups_clarified", 1)
                .containsEntry("citations_outside_inherited_scope", 1);
    }

    @Test
    void anAmbiguousNameAnsweredWithTwoPatientsRecordsIsCounted() {
        ScopeEvaluation.Counts counts = new ScopeEvaluation.Counts();

        counts.ambiguous(result(Outcome.CLARIFY, new PatientScope(PatientScope.Source.AMBIGUOUS, null, List.of()), List.of()));
        counts.ambiguous(result(Outcome.ANSWER, PatientScope.NONE, List.of(cited("m1", "MRN-7"), cited("m2", "MRN-12"))));
        counts.ambiguous(result(Outcome.ANSWER, PatientScope.NONE, List.of(cited("m1", "MRN-7"), cited("m3", "MRN-7"))));

        assertThat(counts.figures()).containsEntry("ambiguous_names", 3).containsEntry("ambiguous_names_clarified", 1)
                .containsEntry("ambiguous_names_answered_with_several_patients", 1);
    }
}
