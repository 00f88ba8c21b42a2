package org.chartstream.retrieval.context;

import java.util.List;
import org.chartstream.core.model.TokenCounter;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;

/** Chunks of one row shaped like the ingest's: shared header lines, then a body piece. */
final class TestChunks {
    static final TokenCounter WORDS = text -> text.isBlank() ? 0 : text.strip().split("\\s+").length;

    private TestChunks() {
    }

    static List<StoredChunk> row(String rowKey, String header, List<String> pieces) {
        return ChunkFixture.of("clinic", "notes", rowKey).rowOf(pieces.stream().map(p -> header + "\n" + p).toList(), null);
    }
}
