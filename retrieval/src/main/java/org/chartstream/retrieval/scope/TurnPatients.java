package org.chartstream.retrieval.scope;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.generate.Passage;

/** The patients a finished turn was about, as the conversation memory keeps them for the next turn's follow-up. */
public final class TurnPatients {
    private TurnPatients() {
    }

    /**
     * The patient the run was restricted to; on a clarification, the candidates it listed; otherwise the distinct
     * patients of the passages it cited, in citation order.
     */
    public static List<String> of(PatientScope scope, List<Passage> cited) {
        if (scope != null && scope.patientKey() != null) {
            return List.of(scope.patientKey());
        }
        if (scope != null && scope.source() == PatientScope.Source.AMBIGUOUS) {
            return scope.candidates().stream().map(PatientCandidate::patientKey).toList();
        }
        Set<String> patients = new LinkedHashSet<>();
        cited.stream().map(p -> p.chunk().patientKey()).filter(Objects::nonNull).forEach(patients::add);
        return List.copyOf(patients);
    }
}
