package org.chartstream.retrieval.scope;

import java.util.Objects;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope;

/**
 * What the scope resolver decided for one question.
 *
 * @param scope         which patient the run is restricted to and why; {@link PatientScope.Source#AMBIGUOUS} when
 *                      the reply must ask which patient
 * @param filter        the filter to search with: the request's, with the resolved patient
 * @param clarification on {@link PatientScope.Source#AMBIGUOUS}, the reply's text asking which patient; else null
 */
public record ScopeDecision(PatientScope scope, RetrievalFilter filter, String clarification) {
    public ScopeDecision {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(filter, "filter");
    }

    public boolean clarify() {
        return scope.source() == PatientScope.Source.AMBIGUOUS;
    }
}
