package org.chartstream.retrieval.context;

import java.util.List;
import java.util.Objects;
import org.chartstream.core.store.StoredChunk;

/**
 * One numbered passage of the generation context: the retrieved chunk, expanded with its row's neighbouring chunks
 * as far as the budget allows.
 *
 * @param index     1-based number the answer cites it by
 * @param anchor    the chunk retrieval chose; citations point at it
 * @param chunks    the row's chunks the text was built from, in chunk order (the anchor among them)
 * @param text      what the model reads
 * @param tokens    model tokens of {@code text}
 * @param truncated whether {@code text} was cut to fit the budget
 * @param score     the rerank score the anchor passed the gate with
 */
public record ContextPassage(int index, StoredChunk anchor, List<StoredChunk> chunks, String text, int tokens,
                             boolean truncated, double score) {
    public ContextPassage {
        Objects.requireNonNull(anchor, "anchor");
        chunks = List.copyOf(chunks);
        Objects.requireNonNull(text, "text");
    }

    /** Ids and sizes only: the text is patient data. */
    @Override
    public String toString() {
        return "ContextPassage[" + index + ", " + anchor.chunkId() + ", " + chunks.size() + " chunks, " + tokens
                + " tokens" + (truncated ? ", truncated" : "") + "]";
    }
}
