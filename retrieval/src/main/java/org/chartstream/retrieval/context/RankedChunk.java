package org.chartstream.retrieval.context;

import java.util.Objects;
import org.chartstream.core.store.StoredChunk;

/** A chunk that passed the gate, with the score it passed with. */
public record RankedChunk(StoredChunk chunk, double score) {
    public RankedChunk {
        Objects.requireNonNull(chunk, "chunk");
    }
}
