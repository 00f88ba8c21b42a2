package org.chartstream.retrieval.generate;

/**
 * The label of the answer given when no generation model is configured: the cited passages themselves, so nobody
 * mistakes them for a generated answer (see {@link ExtractiveGenerator}).
 */
public final class ExtractiveAnswer {
    public static final String LABEL = "Extractive answer (no generation model configured): the most relevant records, quoted.";

    private ExtractiveAnswer() {
    }
}
