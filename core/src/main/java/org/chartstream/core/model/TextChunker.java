package org.chartstream.core.model;

import java.util.List;

/**
 * Splits a row's text into windows that fit the embedding model (counted with the model's own tokenizer). Every
 * window starts with the row's header (record type and patient), so any chunk of a long note names its patient.
 */
@FunctionalInterface
public interface TextChunker {
    List<String> chunk(String header, String body);
}
