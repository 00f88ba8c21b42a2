package org.chartstream.query.context;

import java.util.List;
import org.chartstream.store.RowRef;
import org.chartstream.store.StoredChunk;

/** A row's chunks of its active generation in chunk order; {@code store::rowChunks} is one. */
@FunctionalInterface
public interface SiblingChunks {
    List<StoredChunk> of(RowRef row);

    /** No expansion: every row is just the chunk that was retrieved. */
    SiblingChunks NONE = row -> List.of();
}
