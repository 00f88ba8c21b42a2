package org.chartstream.retrieval.generate;

import java.util.List;

/** How well each sentence (or field) of the cited records answers the question; higher is better. */
@FunctionalInterface
public interface SentenceScorer {
    /** One score per sentence, in input order; comparable within one call. */
    double[] relevance(String question, List<String> sentences);
}
