package org.chartstream.models;

/** How token vectors ({@code last_hidden_state} [B,T,dim]) are reduced to one vector per text. */
public enum Pooling {
    /** Average of the token vectors under the attention mask (sentence-transformers "mean"). */
    MEAN,
    /** The vector of the first token ([CLS] / {@code <s>}), as BGE models are trained. */
    CLS
}
