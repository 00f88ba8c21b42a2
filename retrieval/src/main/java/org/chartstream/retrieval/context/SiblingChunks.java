package org.chartstream.retrieval.context;

import java.util.List;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;

/** A row's chunks of its active generation in chunk order; {@code store::rowChunks} is one. */
@FunctionalInterface
public interface SiblingChunks {
    List<StoredChunk> of(RowRef row);

    /** No expansion: every row is just the chunk that was retrieved. */
    SiblingChunks NONE = row -> List.of();
}
