package org.chartstream.retrieval.steps;

import java.util.List;
import org.chartstream.retrieval.Candidate;
import org.chartstream.retrieval.gate.AnchoredPassages;
import org.chartstream.retrieval.gate.ScopedEvidenceGate;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.gate.TailTrim;

/**
 * The reranked top k, its tail trimmed ({@link TailTrim}) and cut to the passages that mention the question's anchors
 * ({@link AnchoredPassages}), then the gate (pointed or broad, {@link ScopedEvidenceGate}); a refusal stops the run.
 * The numbers the scope resolved to patients are persons to them, not codes.
 */
public record GateStep(ScopedEvidenceGate gate) implements QueryStep {
    @Override
    public String name() { return "gate"; }

    @Override
    public Next run(QueryRun run) {
        List<Candidate> ranked = run.reranked().ranked();
        List<Candidate> top = ranked.subList(0, Math.min(run.topK(), ranked.size()));
        List<String> patientNumbers = run.scope().patientNumbers();
        List<Candidate> kept = AnchoredPassages.mentioning(run.question(), patientNumbers, TailTrim.trim(top, gate.threshold()));
        ScopedGateDecision decision = gate.decide(run.question(), patientNumbers, kept, top);
        run.gate(kept, decision);
        return decision.answer() ? Next.CONTINUE : Next.STOP;
    }
}
