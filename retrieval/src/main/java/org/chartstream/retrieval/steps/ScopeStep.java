package org.chartstream.retrieval.steps;

import org.chartstream.retrieval.scope.PatientDirectory;
import org.chartstream.retrieval.scope.ScopeResolver;
import org.chartstream.retrieval.scope.ScopeDecision;

/**
 * The patient the question names or a follow-up inherits ({@link ScopeResolver}); a question that does not say which
 * of several patients stops the run with a clarification, one naming a patient number no indexed patient has with a
 * refusal.
 */
public final class ScopeStep implements QueryStep {
    private final ScopeResolver resolver;

    /** @param patients the patients questions can name ({@link PatientDirectory#NONE}: none) */
    public ScopeStep(PatientDirectory patients) {
        this.resolver = new ScopeResolver(patients);
    }

    @Override
    public String name() {
        return "scope";
    }

    @Override
    public Next run(QueryRun run) {
        ScopeDecision scope = resolver.resolve(run.question(), run.filter(), run.history());
        run.scope(scope);
        // a follow-up over a previous whole set goes on to the set step, which answers it or stops with the clarification
        return (scope.clarify() && scope.setPatients().isEmpty()) || scope.refused() ? Next.STOP : Next.CONTINUE;
    }
}
