package org.chartstream.retrieval;

/** How one run of the pipeline ended; the query topology maps it onto the reply's type. */
public enum Outcome {
    /** A grounded answer (generated, or extractive when no local LLM is configured). */
    ANSWER,
    /** The gate or the generator found the records do not support an answer. */
    REFUSED,
    /** The local generation model failed; no answer was generated. */
    UNAVAILABLE,
    /** The question does not say which patient it is about; the reply lists the candidates and asks. */
    CLARIFY
}
