package org.chartstream.retrieval.context;

import java.util.List;
import org.chartstream.retrieval.Candidate;

/** Turns the gated candidates into the numbered passages the generation model reads. */
public interface ContextBuilder {

    /**
     * @param gated    the candidates that passed the gate, best first, one per row, each with its rerank score
     * @param passages most passages wanted (the request's top_k); each fits the context budget
     */
    List<ContextPassage> build(List<Candidate> gated, int passages);
}
