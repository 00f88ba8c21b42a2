package org.chartstream.retrieval;

/** Which search sides a question runs on; the request's mode, translated by the query topology. */
public enum SearchMode {
    HYBRID, VECTOR, LEXICAL
}
