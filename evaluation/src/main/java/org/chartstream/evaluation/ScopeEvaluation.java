package org.chartstream.evaluation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.SearchMode;

/**
 * Whether answers stay with the patient a conversation is about, per mode: each follow-up asked after its first
 * turn (does it inherit that turn's patient, and does it cite anyone else?), and each name several patients share
 * (is it clarified, and is it ever answered with two patients' records?). Counts only.
 */
public final class ScopeEvaluation {

    /** The counts of one mode. */
    public static final class Counts {
        int followUps;
        int inherited;
        int inheritedAnotherPatient;
        int followUpsClarified;
        int citationsOutsideInheritedScope;
        int ambiguous;
        int ambiguousClarified;
        int ambiguousAnsweredWithSeveralPatients;

        /** A follow-up's run, after the first turn's. */
        public void followUp(QueryPipeline.Result first, QueryPipeline.Result followUp) {
            followUps++;
            PatientScope scope = followUp.scope();
            if (followUp.answer().outcome() == Outcome.CLARIFY) {
                followUpsClarified++;
            }
            if (scope.source() == PatientScope.Source.INHERITED) {
                inherited++;
                if (!Objects.equals(scope.patientKey(), first.scope().patientKey())) {
                    inheritedAnotherPatient++;
                }
                citationsOutsideInheritedScope += (int) followUp.answer().passages().stream()
                        .filter(p -> !scope.patientKey().equals(p.chunk().patientKey())).count();
            }
        }

        /** A question naming a name several patients share. */
        public void ambiguous(QueryPipeline.Result result) {
            ambiguous++;
            if (result.answer().outcome() == Outcome.CLARIFY) {
                ambiguousClarified++;
            }
            if (result.answer().passages().stream().map(p -> p.chunk().patientKey()).filter(Objects::nonNull).distinct().count() > 1) {
                ambiguousAnsweredWithSeveralPatients++;
            }
        }

        public Map<String, Object> figures() {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("follow_ups", followUps);
            f.put("follow_ups_inherited", inherited);
            f.put("follow_ups_inherited_another_patient", inheritedAnotherPatient);
            f.put("follow_ups_clarified", followUpsClarified);
            f.put("citations_outside_inherited_scope", citationsOutsideInheritedScope);
            f.put("ambiguous_names", ambiguous);
            f.put("ambiguous_names_clarified", ambiguousClarified);
            f.put("ambiguous_names_answered_with_several_patients", ambiguousAnsweredWithSeveralPatients);
            return f;
        }
    }

    private ScopeEvaluation() {
    }

    /** Runs the set's follow-ups (each after its first turn) and its ambiguous names through one mode's pipeline. */
    public static Counts run(QueryPipeline pipeline, SearchMode mode, int topK, ClinicalQuestionSet set) {
        Counts counts = new Counts();
        List<ClinicalQuestion> followUps = set.followUps();
        for (ClinicalQuestion q : followUps) {
            QueryPipeline.Result first = pipeline.run(q.previous(), mode, topK, null);
            counts.followUp(first, pipeline.run(q.text(), mode, topK, null, Conversations.after(first, q.previous()),
                    QueryPipeline.Listener.NONE));
        }
        for (ClinicalQuestion q : set.ambiguousNames()) {
            counts.ambiguous(pipeline.run(q.text(), mode, topK, null));
        }
        return counts;
    }
}
