package org.chartstream.retrieval.context;

import java.util.List;

/** Turns the gated chunks into the numbered passages the generation model reads. */
public interface ContextBuilder {

    /**
     * @param gated    the chunks that passed the gate, best first, one per row
     * @param passages most passages wanted (the request's top_k); each fits the context budget
     */
    List<ContextPassage> build(List<RankedChunk> gated, int passages);
}
