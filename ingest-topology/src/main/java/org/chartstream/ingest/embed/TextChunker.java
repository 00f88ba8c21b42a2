package org.chartstream.ingest.embed;

import java.util.List;

/** Splits a row's text into windows that fit the embedding model (counted with the model's own tokenizer). */
@FunctionalInterface
public interface TextChunker {
    List<String> chunk(String text);
}
