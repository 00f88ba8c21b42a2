package org.chartstream.retrieval;

import java.util.List;
import org.chartstream.retrieval.gate.GateDecision;
import org.chartstream.retrieval.gate.ScopedGateDecision;
import org.chartstream.retrieval.rerank.RerankOutcome;
import org.chartstream.retrieval.search.SideResults;

/** How a run found (or did not look for) its evidence, for the audit and the evaluation: one of four paths. */
public sealed interface RetrievalTrace {

    /** The gate's decision in words (also what decided the runs the gate did not see). */
    String gateDescription();

    /**
     * The ranked path: rewrite, search, fusion, rerank and gate.
     *
     * @param variants the query variants searched, the primary first
     * @param rewrite  what the rewrite did and why
     * @param sides    what each search side returned per variant, best first
     * @param fused    every fused candidate, best first, with its fused score and rank
     * @param rerank   the reranked prefix in the rerank stage's order, each with its rerank score
     * @param gate     the gate's decision over the reranked top k
     */
    record Ranked(List<String> variants, String rewrite, List<SideResults> sides, List<Candidate> fused,
                  RerankOutcome rerank, ScopedGateDecision gate) implements RetrievalTrace {
        public Ranked {
            variants = List.copyOf(variants);
            sides = List.copyOf(sides);
            fused = List.copyOf(fused);
        }

        public List<Candidate> reranked() {
            return rerank.ranked();
        }

        @Override
        public String gateDescription() {
            return gate.describe();
        }
    }

    /**
     * A cohort or whole-set question, decided by exact term lookup or an exact row-set plan: no ranked search ran and no passage was scored; the rows it
     * lists are the answer's passages.
     *
     * @param listed whether rows were listed (else the question was refused)
     * @param reason why
     */
    record Cohort(boolean listed, String reason) implements RetrievalTrace {
        /** How the rows were found, in the audit's reranker field. */
        public static final String LOOKUP = "cohort (exact term lookup)";
        /** The gate "scorer" of a run the cohort step decided (exact term lookup; no passage was scored). */
        public static final String EXACT_TERM_SCORER = "exact-term";
        /** How a whole-set answer's rows were found, in the audit's reranker field. */
        public static final String SET_PLAN = "whole set (exact row-set plan)";

        public GateDecision decision() {
            return new GateDecision(listed, EXACT_TERM_SCORER, listed ? 1 : 0, 1, reason);
        }

        @Override
        public String gateDescription() {
            return decision().describe();
        }
    }

    /**
     * Nothing searched: the question does not say which patient, and a clarification was asked.
     *
     * @param question the question as asked
     * @param scope    the patient scope's description (the candidates it could be)
     */
    record Clarified(String question, String scope) implements RetrievalTrace {
        @Override
        public String gateDescription() {
            return "not run: clarification asked (" + scope + ")";
        }
    }

    /**
     * Nothing searched: the question names a patient by a number no indexed patient has, and was refused.
     *
     * @param question the question as asked
     */
    record UnknownPatient(String question) implements RetrievalTrace {
        @Override
        public String gateDescription() {
            return "not run: the question names a patient number no indexed patient has";
        }
    }
}
