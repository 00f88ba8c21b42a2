package org.chartstream.retrieval.scope;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope;

/**
 * What the scope resolver decided for one question.
 *
 * @param scope          which patient the run is restricted to and why; {@link PatientScope.Source#AMBIGUOUS} when
 *                       the reply must ask which patient, {@link PatientScope.Source#UNKNOWN} when it must refuse
 * @param filter         the filter to search with: the request's, with the resolved patient
 * @param clarification  on {@link PatientScope.Source#AMBIGUOUS}, the reply's text asking which patient; on
 *                       {@link PatientScope.Source#UNKNOWN}, why the question is refused (the numbers no indexed
 *                       patient has); else null
 * @param patientNumbers the words of the question (folded, {@link Words#fold}) that are the number of a patient it
 *                       names (the request's patient, or those it named by number): they name a person, they are not
 *                       clinical codes
 * @param setPatients    a follow-up about the patients of a previous whole-set answer ("they", "those patients"):
 *                       that set's patient keys, to be read as a set; the decision is then also the clarification to
 *                       give when the question cannot be answered over the set. Empty otherwise
 */
public record ScopeDecision(PatientScope scope, RetrievalFilter filter, String clarification, List<String> patientNumbers,
                            List<String> setPatients) {
    public ScopeDecision {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(filter, "filter");
        patientNumbers = List.copyOf(patientNumbers);
        setPatients = setPatients == null ? List.of() : List.copyOf(setPatients);
    }

    /** A decision that is not a follow-up over a whole set. */
    public ScopeDecision(PatientScope scope, RetrievalFilter filter, String clarification, List<String> patientNumbers) {
        this(scope, filter, clarification, patientNumbers, List.of());
    }

    /** A decision whose question names no patient by number. */
    public ScopeDecision(PatientScope scope, RetrievalFilter filter, String clarification) {
        this(scope, filter, clarification, List.of());
    }

    /** The same decision, read over the patients of a previous whole set when the question can be. */
    public ScopeDecision overSet(List<String> patientKeys) {
        return new ScopeDecision(scope, filter, clarification, patientNumbers, patientKeys);
    }

    public boolean clarify() {
        return scope.source() == PatientScope.Source.AMBIGUOUS;
    }

    /** The question names a patient no indexed patient is: nothing is searched, the reply says which number. */
    public boolean refused() {
        return scope.source() == PatientScope.Source.UNKNOWN;
    }
}
